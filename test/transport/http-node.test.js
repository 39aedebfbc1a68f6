// Parity (issue 21): the Streamable HTTP suite of http.test.js, run against the node:http path
// (createHttpHandler, node requests read directly) instead of the fetch handler. Both paths call
// one endpoint (createEndpoint), so each check must answer alike on both.
process.env.BAREMCP_TEST_HTTP_PATH = 'node';
await import('./http.test.js');
