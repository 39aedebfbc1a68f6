// Java reading baremcp's output: BufferedReader.readLine() over UTF-8 and Jackson's readTree. One
// line out per message: "<id>\t<code points of result.content[0].text, hex>", "OTHER\t<id>" or
// "ERROR\t<message>".
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

public class LineReader {
  public static void main(String[] args) throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    StringBuilder out = new StringBuilder();
    for (String line; (line = in.readLine()) != null; ) {
      if (line.isEmpty()) continue;
      JsonNode message;
      try {
        message = mapper.readTree(line);
      } catch (Exception error) {
        out.append("ERROR\t").append(error.getMessage().split("\n")[0]).append('\n');
        continue;
      }
      JsonNode text = message.path("result").path("content").path(0).path("text");
      if (!text.isTextual()) {
        out.append("OTHER\t").append(message.path("id")).append('\n');
        continue;
      }
      StringBuilder points = new StringBuilder();
      text.asText().codePoints().forEach(cp -> points.append(points.length() > 0 ? " " : "").append(Integer.toHexString(cp)));
      out.append(message.path("id")).append('\t').append(points).append('\n');
    }
    PrintStream stdout = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    stdout.print(out);
    stdout.flush();
  }
}
