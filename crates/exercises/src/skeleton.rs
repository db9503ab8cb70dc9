//! "Make an exercise from what I see": the page's current program,
//! configuration and question become the text of an exercise file (format
//! [`crate::FORMAT_VERSION`]) for the instructor to download and finish. The
//! text loads with [`crate::load::parse_exercise`] as it is.

use crate::model::{ConfigSpec, Question};

/// A TOML basic string: quotes, backslashes and control characters escaped.
fn string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A program or prompt as a TOML multi-line literal string (readable, as
/// in the hand-written files) when it can be one, else as a basic string.
fn program_string(p: &str) -> String {
    let plain = !p.contains("'''") && !p.ends_with('\'') && p.chars().all(|c| c == '\n' || c == '\t' || !c.is_control());
    if plain {
        format!("'''\n{p}'''")
    } else {
        string(p)
    }
}

/// A key, bare when it can be.
fn key(k: &str) -> String {
    if !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        k.to_string()
    } else {
        string(k)
    }
}

/// A JSON value as a TOML value (objects as inline tables, whose null
/// members are left out; a null elsewhere is written as an empty string).
fn value(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Null => "\"\"".into(),
        serde_json::Value::Bool(b) => b.to_string(),
        serde_json::Value::Number(n) => n.to_string(),
        serde_json::Value::String(s) => string(s),
        serde_json::Value::Array(a) => format!("[{}]", a.iter().map(value).collect::<Vec<_>>().join(", ")),
        serde_json::Value::Object(o) => {
            format!(
                "{{ {} }}",
                o.iter()
                    .filter(|(_, v)| !v.is_null())
                    .map(|(k, v)| format!("{} = {}", key(k), value(v)))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    }
}

/// The placeholder prompt of a made exercise the instructor has not
/// written yet.
pub const PLACEHOLDER_PROMPT: &str = "Write the question here (Markdown).\n";

/// The text of an exercise file with the program inline, the given
/// configuration and question, and a placeholder prompt.
pub fn exercise_toml(id: &str, title: &str, program: &str, config: &ConfigSpec, question: &Question) -> String {
    exercise_file(id, title, PLACEHOLDER_PROMPT, 1, program, config, question)
}

/// The text of an exercise file: id, title, the prompt (Markdown) and the
/// points the instructor wrote, the program inline, the configuration and
/// the question.
pub fn exercise_file(
    id: &str,
    title: &str,
    prompt: &str,
    points: u32,
    program: &str,
    config: &ConfigSpec,
    question: &Question,
) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "format = {}\nid = {}\ntitle = {}\npoints = {points}\n",
        crate::FORMAT_VERSION,
        string(id),
        string(title)
    ));
    s.push_str(&format!("prompt = {}\n\n", program_string(prompt)));
    s.push_str(&format!("[program]\nsource = {}\n\n", program_string(program)));
    s.push_str(&format!("[config]\npreset = {}\n", string(&config.preset)));
    if !config.set.is_empty() {
        let pairs: Vec<String> = config.set.iter().map(|(k, v)| format!("{} = {}", string(k), string(v))).collect();
        s.push_str(&format!("set = {{ {} }}\n", pairs.join(", ")));
    }
    s.push_str(&format!("locked = {}\n\n[question]\n", config.locked));
    if let Ok(serde_json::Value::Object(q)) = serde_json::to_value(question) {
        // `kind` first, as in the hand-written files.
        if let Some(k) = q.get("kind") {
            s.push_str(&format!("kind = {}\n", value(k)));
        }
        // An absent option (`max_states` unset) serializes as null: TOML
        // has no null, the key is left out.
        for (k, v) in q.iter().filter(|(k, v)| *k != "kind" && !v.is_null()) {
            s.push_str(&format!("{} = {}\n", key(k), value(v)));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{LocationSpec, StateDomain, StepQuestion};

    #[test]
    fn every_kind_round_trips_through_the_loader() {
        let program = "extern void reach_error(void);\nint main(void) {\n  int i = 0; // \"quoted\" \\ text\n  while (i < 3) { i = i + 1; }\n  if (i != 3) { reach_error(); }\n  return 0;\n}\n";
        let oct = ConfigSpec {
            preset: "octagon-join".into(),
            set: [("cpa.octagon.mergeop.onlyMergeAtLoopHeads".to_string(), "true".to_string())].into(),
            locked: false,
        };
        let questions = vec![
            Question::Verdict,
            Question::Count { measure: crate::model::Measure::Created, tolerance: 3 },
            Question::ChooseConfiguration {
                presets: vec!["value".into()],
                open: [("cpa.octagon.mergeop.type".to_string(), vec!["JOIN".to_string()])].into(),
                max_states: Some(9),
            },
            Question::ChooseConfiguration { presets: vec!["value".into()], open: Default::default(), max_states: None },
            Question::Separate { a: oct.clone(), b: ConfigSpec { preset: "value".into(), ..Default::default() } },
            Question::AbstractState {
                location: LocationSpec { loop_head: Some(1), ..Default::default() },
                domain: StateDomain::Octagon,
            },
            Question::NextStep { step: 4, ask: vec![StepQuestion::Merge] },
            Question::Invariant { location: LocationSpec { line: Some(4), ..Default::default() } },
        ];
        for q in questions {
            let text = exercise_toml("made-here", "Made \"here\"", program, &oct, &q);
            let read = |_: &str| -> Result<String, String> { Err("no files".into()) };
            let ex = crate::load::parse_exercise("made.toml", &text, &read).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(ex.question, q);
            assert_eq!(ex.program, program);
            assert_eq!(ex.config, oct);
            assert_eq!(ex.title, "Made \"here\"");
        }
        // Programs that a literal string cannot hold fall back to a basic one.
        for p in [
            "int main(void) { return 0; }",
            "// '''\nint main(void) { return 0; }\n",
            "int main(void) { return 0; } // '",
            "int main(void) {\r\n  return 0;\r\n}\r\n",
        ] {
            let text = exercise_toml("p", "P", p, &oct, &Question::Verdict);
            let read = |_: &str| -> Result<String, String> { Err("no files".into()) };
            let ex = crate::load::parse_exercise("p.toml", &text, &read).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(ex.program, p, "{text}");
        }
        assert!(exercise_toml("p", "P", program, &oct, &Question::Verdict).contains("source = '''\nextern void"), "readable");
    }

    #[test]
    fn an_edited_prompt_and_points_round_trip() {
        let read = |_: &str| -> Result<String, String> { Err("no files".into()) };
        let config = ConfigSpec { preset: "value".into(), ..Default::default() };
        for prompt in ["How many *states*?\n\n- one\n- `two`\n", "Quotes \"\"\" and ''' and \\ too", "no newline"] {
            let text = exercise_file("e", "E", prompt, 7, "int main(void) { return 0; }\n", &config, &Question::Verdict);
            let ex = crate::load::parse_exercise("e.toml", &text, &read).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!((ex.prompt.as_str(), ex.points), (prompt, 7), "{text}");
        }
    }
}
