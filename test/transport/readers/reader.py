# Python reading baremcp's output: json.loads over str.splitlines() ("splitlines") or over a UTF-8
# text stream with universal newlines ("stream"). One line out per message: "<id>\t<code points
# of result.content[0].text, hex>", "OTHER\t<id>" or "ERROR\t<message>".
import io
import json
import sys

if sys.argv[1] == 'splitlines':
    lines = sys.stdin.buffer.read().decode('utf-8').splitlines()
else:
    lines = io.TextIOWrapper(sys.stdin.buffer, encoding='utf-8')
out = []
for line in lines:
    line = line.rstrip('\n')
    if not line:
        continue
    try:
        message = json.loads(line)
    except ValueError as error:
        out.append(f'ERROR\t{error}')
        continue
    try:
        text = message['result']['content'][0]['text']
    except (KeyError, IndexError, TypeError):
        out.append(f"OTHER\t{json.dumps(message.get('id'))}")
        continue
    out.append(f"{json.dumps(message['id'])}\t{' '.join('%x' % ord(c) for c in text)}")
sys.stdout.write(''.join(line + '\n' for line in out))
