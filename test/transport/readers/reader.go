// Go reading baremcp's output: bufio.Scanner (default buffer) and encoding/json. One line out per
// message: "<id>\t<code points of result.content[0].text, hex>", "OTHER\t<id>" or "ERROR\t<message>".
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

type message struct {
	ID     json.RawMessage `json:"id"`
	Result *struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	} `json:"result"`
}

func main() {
	scanner := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for scanner.Scan() {
		line := scanner.Bytes()
		if len(line) == 0 {
			continue
		}
		var m message
		if err := json.Unmarshal(line, &m); err != nil {
			fmt.Fprintf(out, "ERROR\t%v\n", err)
			continue
		}
		if m.Result == nil || len(m.Result.Content) == 0 {
			fmt.Fprintf(out, "OTHER\t%s\n", m.ID)
			continue
		}
		var points []string
		for _, r := range m.Result.Content[0].Text {
			points = append(points, fmt.Sprintf("%x", r))
		}
		fmt.Fprintf(out, "%s\t%s\n", m.ID, strings.Join(points, " "))
	}
	if err := scanner.Err(); err != nil {
		fmt.Fprintf(out, "ERROR\t%v\n", err)
	}
}
