// Reads stdin with BufRead::lines() (a line ends at \n) and parses each with serde_json; prints
// one line per message: "<id>\t<code points of result.content[0].text, hex>", "OTHER\t<id>" or
// "ERROR\t<message>".
use std::io::{self, BufRead, Write};

fn main() {
    let mut out = String::new();
    for line in io::stdin().lock().lines() {
        let line = match line {
            Ok(line) => line,
            Err(error) => {
                out.push_str(&format!("ERROR\t{}\n", error));
                continue;
            }
        };
        if line.is_empty() {
            continue;
        }
        match serde_json::from_str::<serde_json::Value>(&line) {
            Err(error) => out.push_str(&format!("ERROR\t{}\n", error)),
            Ok(message) => match message.pointer("/result/content/0/text").and_then(|t| t.as_str()) {
                None => out.push_str(&format!("OTHER\t{}\n", message["id"])),
                Some(text) => {
                    let points: Vec<String> = text.chars().map(|c| format!("{:x}", c as u32)).collect();
                    out.push_str(&format!("{}\t{}\n", message["id"], points.join(" ")));
                }
            },
        }
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
