//! The hosting kit of docs/hosting.md, checked: the Agones manifests of
//! `deploy/agones/` against the schema beside them (`schema.json`, the
//! fields they use as Agones' CRDs define them), with a reader of the YAML
//! they are written in and a checker of that schema, both small and our
//! own (no YAML or JSON Schema crate in the graph for a test); the
//! Dockerfile's shape; and, where a Docker engine answers, the image built
//! and asked for `/health`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Map, Value};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A YAML document of the block style the manifests are written in, as
/// JSON: mappings and sequences by indentation (a sequence may sit at its
/// key's indentation), `- key: value` items, `|` literal blocks, plain and
/// quoted scalars, `#` comments, and the empty `{}` and `[]`. Anything
/// else (flow collections, anchors, tabs, several documents) is refused,
/// so the manifests stay within what this reads.
mod yaml {
    use super::*;

    struct Line<'t> {
        number: usize,
        indent: usize,
        text: &'t str,
    }

    pub(super) fn parse(text: &str) -> Result<Value, String> {
        let raw: Vec<&str> = text.lines().collect();
        if let Some(n) = raw.iter().position(|l| l.contains('\t')) {
            return Err(format!("line {}: a tab", n + 1));
        }
        let mut reader = Reader { raw, at: 0 };
        reader.skip_blank();
        let indent = reader.line().map_or(0, |l| l.indent);
        let value = reader.node(indent)?;
        reader.skip_blank();
        match reader.line() {
            Some(l) => Err(format!("line {}: unexpected {:?}", l.number, l.text)),
            None => Ok(value),
        }
    }

    struct Reader<'t> {
        raw: Vec<&'t str>,
        at: usize,
    }

    impl<'t> Reader<'t> {
        fn line(&self) -> Option<Line<'t>> {
            let raw = self.raw.get(self.at)?;
            let text = raw.trim_start();
            Some(Line {
                number: self.at + 1,
                indent: raw.len() - text.len(),
                text: text.trim_end(),
            })
        }

        /// Moves past blank lines and whole-line comments.
        fn skip_blank(&mut self) {
            while self.line().is_some_and(|l| l.text.is_empty() || l.text.starts_with('#')) {
                self.at += 1;
            }
        }

        /// The mapping or sequence whose lines start at `indent`.
        fn node(&mut self, indent: usize) -> Result<Value, String> {
            match self.line() {
                Some(l) if l.text == "-" || l.text.starts_with("- ") => self.sequence(indent),
                Some(_) => self.mapping(indent, None),
                None => Ok(Value::Null),
            }
        }

        /// A mapping at `indent`; `first` is its first entry when it began
        /// after a sequence's `- `.
        fn mapping(&mut self, indent: usize, first: Option<&'t str>) -> Result<Value, String> {
            let mut map = Map::new();
            let mut pending = first;
            loop {
                let entry = match pending.take() {
                    Some(text) => text,
                    None => {
                        self.skip_blank();
                        match self.line() {
                            Some(l) if l.indent == indent && !l.text.starts_with('-') => {
                                self.at += 1;
                                l.text
                            }
                            Some(l) if l.indent > indent => {
                                return Err(format!("line {}: indented too far", l.number));
                            }
                            _ => return Ok(Value::Object(map)),
                        }
                    }
                };
                let number = self.at;
                let (key, rest) =
                    split_entry(entry).ok_or(format!("line {number}: not key: value"))?;
                let value = self.value_after(indent, rest, number)?;
                if map.insert(key.clone(), value).is_some() {
                    return Err(format!("line {number}: {key} twice"));
                }
            }
        }

        /// The value of an entry at `indent` whose text after the colon is
        /// `rest`.
        fn value_after(
            &mut self,
            indent: usize,
            rest: &str,
            number: usize,
        ) -> Result<Value, String> {
            match rest {
                "|" | "|-" => Ok(Value::String(self.literal(indent, rest == "|"))),
                "" => {
                    self.skip_blank();
                    match self.line() {
                        Some(l) if l.indent > indent => self.node(l.indent),
                        // A sequence may sit at its key's indentation.
                        Some(l) if l.indent == indent && l.text.starts_with("- ") => {
                            self.sequence(indent)
                        }
                        _ => Ok(Value::Null),
                    }
                }
                scalar => super::yaml::scalar(scalar).map_err(|e| format!("line {number}: {e}")),
            }
        }

        /// A sequence at `indent`.
        fn sequence(&mut self, indent: usize) -> Result<Value, String> {
            let mut items = Vec::new();
            loop {
                self.skip_blank();
                let Some(l) = self.line().filter(|l| l.indent == indent && l.text.starts_with('-'))
                else {
                    return Ok(Value::Array(items));
                };
                self.at += 1;
                let item = l.text[1..].trim_start();
                let inner = indent + (l.text.len() - item.len());
                items.push(match item {
                    "" => {
                        self.skip_blank();
                        let deeper = self.line().filter(|n| n.indent > indent);
                        match deeper {
                            Some(n) => self.node(n.indent)?,
                            None => Value::Null,
                        }
                    }
                    _ if split_entry(item).is_some() && !item.starts_with(['"', '\'']) => {
                        self.mapping(inner, Some(item))?
                    }
                    "|" | "|-" => Value::String(self.literal(indent, item == "|")),
                    _ => scalar(item).map_err(|e| format!("line {}: {e}", l.number))?,
                });
            }
        }

        /// The lines of a literal block under a line at `indent`, their
        /// common indentation taken off; with `keep`, one newline at its end.
        fn literal(&mut self, indent: usize, keep: bool) -> String {
            let mut lines = Vec::new();
            while let Some(raw) = self.raw.get(self.at) {
                let text = raw.trim_start();
                if !text.is_empty() && raw.len() - text.len() <= indent {
                    break;
                }
                lines.push(*raw);
                self.at += 1;
            }
            while lines.last().is_some_and(|l| l.trim().is_empty()) {
                lines.pop();
            }
            let cut = lines
                .iter()
                .filter(|l| !l.trim().is_empty())
                .map(|l| l.len() - l.trim_start().len())
                .min()
                .unwrap_or(0);
            let mut out: String =
                lines.iter().map(|l| format!("{}\n", l.get(cut..).unwrap_or(""))).collect();
            if !keep {
                out.pop();
            }
            out
        }
    }

    /// `key: rest` (or `key:`), the key plain or double-quoted.
    fn split_entry(text: &str) -> Option<(String, &str)> {
        let (key, rest) = match text.strip_prefix('"') {
            Some(quoted) => {
                let end = quoted.find('"')?;
                (quoted[..end].to_owned(), quoted[end + 1..].strip_prefix(':')?)
            }
            None => {
                let colon = text.find(": ").or_else(|| text.strip_suffix(':').map(str::len))?;
                (text[..colon].to_owned(), &text[colon + 1..])
            }
        };
        let rest = rest.trim();
        let rest = if rest.starts_with('#') { "" } else { rest };
        Some((key, rest))
    }

    /// A scalar: quoted, or plain (a comment after ` #` dropped): a
    /// boolean, null, an integer, `{}`, `[]` or a string.
    pub(super) fn scalar(text: &str) -> Result<Value, String> {
        if let Some(quoted) = text.strip_prefix('"') {
            let end = quoted.rfind('"').ok_or("an unclosed quote")?;
            return serde_json::from_str(&format!("\"{}\"", &quoted[..end]))
                .map_err(|e| e.to_string());
        }
        if let Some(quoted) = text.strip_prefix('\'') {
            let end = quoted.rfind('\'').ok_or("an unclosed quote")?;
            return Ok(Value::String(quoted[..end].replace("''", "'")));
        }
        let plain = text.split(" #").next().unwrap_or_default().trim();
        if plain.starts_with(['&', '*', '!', '[', '{', '>', '%', '@', '`']) {
            return match plain {
                "{}" => Ok(Value::Object(Map::new())),
                "[]" => Ok(Value::Array(Vec::new())),
                _ => Err(format!("{plain:?}: beyond the YAML this reads")),
            };
        }
        Ok(match plain {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            "null" | "~" => Value::Null,
            _ => match plain.parse::<i64>() {
                Ok(n) => Value::from(n),
                Err(_) => Value::String(plain.to_owned()),
            },
        })
    }
}

/// A checker of the JSON Schema keywords `schema.json` uses; any other
/// keyword is an error, so that none is passed over unchecked.
mod schema {
    use super::*;

    const WORDS: &[&str] = &["$schema", "$comment", "title", "description", "$defs"];

    pub(super) struct Checker<'s> {
        pub(super) root: &'s Value,
    }

    impl Checker<'_> {
        /// Every way `value` (at `path`) breaks `schema`, one line each.
        pub(super) fn check(&self, schema: &Value, value: &Value, path: &str) -> Vec<String> {
            let Some(rules) = schema.as_object() else {
                return vec![format!("{path}: the schema is not an object")];
            };
            let mut broken = Vec::new();
            for (word, rule) in rules {
                if !WORDS.contains(&word.as_str()) {
                    broken.extend(self.keyword(word, rule, rules, value, path));
                }
            }
            broken
        }

        fn keyword(
            &self,
            word: &str,
            rule: &Value,
            rules: &Map<String, Value>,
            value: &Value,
            path: &str,
        ) -> Vec<String> {
            let fail = |why: String| vec![format!("{path}: {why}")];
            let number = value.as_f64();
            let length = value.as_str().map(|s| s.chars().count() as u64);
            match word {
                "$ref" => self.reference(rule, value, path),
                "type" if !is_type(value, rule) => fail(format!("{value} is not of type {rule}")),
                "enum" if !rule.as_array().is_some_and(|all| all.contains(value)) => {
                    fail(format!("{value} is none of {rule}"))
                }
                "const" if rule != value => fail(format!("{value} is not {rule}")),
                "minimum" if number.zip(rule.as_f64()).is_some_and(|(n, m)| n < m) => {
                    fail(format!("{value} is under {rule}"))
                }
                "maximum" if number.zip(rule.as_f64()).is_some_and(|(n, m)| n > m) => {
                    fail(format!("{value} is over {rule}"))
                }
                "minLength" if length.zip(rule.as_u64()).is_some_and(|(n, m)| n < m) => {
                    fail(format!("{value} is shorter than {rule}"))
                }
                "maxLength" if length.zip(rule.as_u64()).is_some_and(|(n, m)| n > m) => {
                    fail(format!("{value} is longer than {rule}"))
                }
                "minItems"
                    if value
                        .as_array()
                        .zip(rule.as_u64())
                        .is_some_and(|(a, m)| (a.len() as u64) < m) =>
                {
                    fail(format!("fewer than {rule} items"))
                }
                "required" => self.required(rule, value, path),
                "properties" | "additionalProperties" => {
                    self.members(word, rule, rules, value, path)
                }
                "items" => match value.as_array() {
                    Some(items) => items
                        .iter()
                        .enumerate()
                        .flat_map(|(i, item)| self.check(rule, item, &format!("{path}[{i}]")))
                        .collect(),
                    None => Vec::new(),
                },
                "contains" => match value.as_array() {
                    Some(items) if !items.iter().any(|i| self.check(rule, i, path).is_empty()) => {
                        fail(format!("no item is {rule}"))
                    }
                    _ => Vec::new(),
                },
                "oneOf" | "anyOf" => self.choice(word, rule, value, path),
                "type" | "enum" | "const" | "minimum" | "maximum" | "minLength" | "maxLength"
                | "minItems" => Vec::new(),
                other => fail(format!("the checker does not know the keyword {other}")),
            }
        }

        fn reference(&self, rule: &Value, value: &Value, path: &str) -> Vec<String> {
            let target =
                rule.as_str().and_then(|r| r.strip_prefix('#')).and_then(|p| self.root.pointer(p));
            match target {
                Some(schema) => self.check(schema, value, path),
                None => vec![format!("{path}: no schema at {rule}")],
            }
        }

        fn required(&self, rule: &Value, value: &Value, path: &str) -> Vec<String> {
            let Some(object) = value.as_object() else { return Vec::new() };
            let names = rule.as_array().into_iter().flatten().filter_map(Value::as_str);
            names
                .filter(|n| !object.contains_key(*n))
                .map(|n| format!("{path}: {n} is missing"))
                .collect()
        }

        /// `properties` checks the members it names; `additionalProperties`
        /// the others (refused when it is false).
        fn members(
            &self,
            word: &str,
            rule: &Value,
            rules: &Map<String, Value>,
            value: &Value,
            path: &str,
        ) -> Vec<String> {
            let Some(object) = value.as_object() else { return Vec::new() };
            let named = rules.get("properties").and_then(Value::as_object);
            let mut broken = Vec::new();
            for (name, member) in object {
                let at = format!("{path}.{name}");
                match named.and_then(|n| n.get(name)) {
                    Some(schema) if word == "properties" => {
                        broken.extend(self.check(schema, member, &at))
                    }
                    None if word == "additionalProperties" => match rule {
                        Value::Bool(false) => {
                            broken.push(format!("{at}: not a field this kind has"))
                        }
                        Value::Bool(true) => {}
                        schema => broken.extend(self.check(schema, member, &at)),
                    },
                    _ => {}
                }
            }
            broken
        }

        fn choice(&self, word: &str, rule: &Value, value: &Value, path: &str) -> Vec<String> {
            let options = rule.as_array().map(Vec::as_slice).unwrap_or_default();
            let outcomes: Vec<Vec<String>> =
                options.iter().map(|o| self.check(o, value, path)).collect();
            let passed = outcomes.iter().filter(|o| o.is_empty()).count();
            match (word, passed) {
                ("oneOf", 1) => Vec::new(),
                ("anyOf", n) if n > 0 => Vec::new(),
                // The option that came nearest says why.
                _ => outcomes.into_iter().min_by_key(Vec::len).unwrap_or_default(),
            }
        }
    }

    fn is_type(value: &Value, rule: &Value) -> bool {
        match rule.as_str() {
            Some("object") => value.is_object(),
            Some("array") => value.is_array(),
            Some("string") => value.is_string(),
            Some("integer") => value.is_i64() || value.is_u64(),
            Some("number") => value.is_number(),
            Some("boolean") => value.is_boolean(),
            Some("null") => value.is_null(),
            _ => false,
        }
    }
}

/// Why the manifest `text` breaks `schema.json`, if it does.
fn broken(text: &str) -> Vec<String> {
    let schema: Value = serde_json::from_str(&read("deploy/agones/schema.json")).expect("JSON");
    let manifest = match yaml::parse(text) {
        Ok(manifest) => manifest,
        Err(e) => return vec![format!("unreadable: {e}")],
    };
    schema::Checker { root: &schema }.check(&schema, &manifest, "$")
}

#[test]
fn the_agones_manifests_hold_to_the_schema() {
    for file in ["deploy/agones/gameserver.yaml", "deploy/agones/fleet.yaml"] {
        assert_eq!(broken(&read(file)), Vec::<String>::new(), "{file}");
    }
}

#[test]
fn a_manifest_the_schema_refuses_is_refused_with_where_and_why() {
    let good = read("deploy/agones/gameserver.yaml");
    let cases = [
        ("portPolicy: Dynamic", "portPolicy: dynamic", "$.spec.ports[0].portPolicy"),
        ("containerPort: 7777", "containerPort: 70000", "$.spec.ports[0].containerPort"),
        ("  container: gloam-server\n  ports:", "  contianer: x\n  ports:", "$.spec.contianer"),
        ("        - --health\n", "", "no item is"),
        ("        image: gloam-server:latest\n", "", "image is missing"),
        ("kind: GameServer", "kind: Fleet", "$.kind"),
        ("    disabled: false", "    disabled: no", "$.spec.health.disabled"),
    ];
    for (from, to, said) in cases {
        assert!(good.contains(from), "{from:?}");
        let why = broken(&good.replacen(from, to, 1));
        assert!(why.iter().any(|w| w.contains(said)), "{to:?}: {why:?}");
    }
    let fleet = read("deploy/agones/fleet.yaml").replacen("replicas: 3", "replicas: -1", 1);
    assert!(broken(&fleet).iter().any(|w| w.contains("$.spec.replicas")), "{:?}", broken(&fleet));
}

#[test]
fn the_fleet_runs_the_gameserver_of_gameserver_yaml() {
    let server = yaml::parse(&read("deploy/agones/gameserver.yaml")).unwrap();
    let fleet = yaml::parse(&read("deploy/agones/fleet.yaml")).unwrap();
    assert_eq!(fleet["spec"]["template"]["spec"], server["spec"]);
    let containers = server["spec"]["template"]["spec"]["containers"].as_array().unwrap();
    let args: Vec<&str> =
        containers[0]["args"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    let after = |flag: &str| args.iter().skip_while(|a| **a != flag).nth(1).copied();
    // The port Agones opens is the one the server binds, and the bridge
    // reads the health port the server serves.
    let port = server["spec"]["ports"][0]["containerPort"].as_u64().unwrap();
    assert_eq!(after("--bind"), Some(format!("0.0.0.0:{port}").as_str()));
    assert_eq!(after("--health"), Some("0.0.0.0:9000"));
    let bridge = containers[1]["args"][0].as_str().unwrap();
    assert!(bridge.contains("gloam=\"http://127.0.0.1:9000\""), "{bridge}");
    assert!(bridge.ends_with("call POST /shutdown '{}'\n"), "{bridge}");
}

#[test]
fn the_yaml_reader_reads_what_the_manifests_use_and_refuses_the_rest() {
    let text =
        "a: 1\nb:\n- x: \"q\" # note\n  y: [] \n- -z\nc: |\n  one\n\n   two\nd: {}\ne: 25%\n";
    let read = yaml::parse(text).unwrap();
    let want = serde_json::json!({
        "a": 1, "b": [{"x": "q", "y": []}, "-z"], "c": "one\n\n two\n", "d": {}, "e": "25%"
    });
    assert_eq!(read, want);
    for bad in ["a: [1, 2]\n", "a: &x 1\n", "a:\n\tb: 1\n", "a: 1\n  b: 2\n", "a: 1\na: 2\n"] {
        assert!(yaml::parse(bad).is_err(), "{bad:?}");
    }
}

/// The Dockerfile builds in one stage and ships only the binary (and the
/// empty folder of the world) in a runtime image with no shell.
#[test]
fn the_dockerfile_is_multi_stage_and_ships_the_binary_alone() {
    let dockerfile = read("Dockerfile");
    let lines: Vec<&str> = dockerfile
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let stages: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].starts_with("FROM ")).collect();
    assert_eq!(stages.len(), 2, "a build stage and a runtime stage");
    assert!(lines[stages[0]].ends_with(" AS build"), "{}", lines[stages[0]]);
    let runtime = &lines[stages[1]..];
    assert!(runtime[0].contains("distroless"), "{}", runtime[0]);
    assert!(!runtime.iter().any(|l| l.starts_with("RUN ")), "nothing runs in the runtime stage");
    let copies: Vec<&&str> = runtime.iter().filter(|l| l.starts_with("COPY ")).collect();
    assert_eq!(copies.len(), 2, "{copies:?}");
    assert!(copies[0].ends_with("/src/target/release/gloam-server /gloam-server"), "{copies:?}");
    assert!(copies[1].ends_with("/data /data"), "{copies:?}");
    assert!(runtime.contains(&"ENTRYPOINT [\"/gloam-server\"]"));
    let ignored = read(".dockerignore");
    assert!(ignored.lines().any(|l| l == "target/") && ignored.contains("node_modules/"));
}

/// Where a Docker engine answers: the image builds, runs, and answers
/// `/health` on its game port and `/health/ready` on its health port.
/// Elsewhere the test says why it checked nothing.
#[test]
fn the_container_builds_and_answers_health() {
    if let Err(why) = docker(&["info", "--format", "{{.ServerVersion}}"]) {
        eprintln!("skipped: no Docker engine answers here ({why})");
        return;
    }
    let tag = format!("gloam-server-test:{}", std::process::id());
    let dir = root();
    docker(&["build", "-t", &tag, dir.to_str().unwrap()]).expect("the image builds");
    let id = docker(&["run", "-d", "--rm", "-p", "127.0.0.1::7777", "-p", "127.0.0.1::9000", &tag])
        .expect("the container starts");
    let id = id.trim().to_owned();
    let outcome = std::panic::catch_unwind(|| ask_health(&id));
    let _ = docker(&["rm", "-f", &id]);
    let _ = docker(&["rmi", "-f", &tag]);
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic);
    }
}

/// Asks the container `id` for its health on both ports, waiting (at most
/// a minute) for it to listen.
fn ask_health(id: &str) {
    let port = |inner: &str| -> std::net::SocketAddr {
        let told = docker(&["port", id, inner]).expect("a mapped port");
        told.lines().next().expect("an address").trim().parse().expect("host:port")
    };
    let (game, health) = (port("7777/tcp"), port("9000/tcp"));
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        while tokio::net::TcpStream::connect(game).await.is_err() {
            assert!(tokio::time::Instant::now() < deadline, "the container listens in time");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        let request = b"GET /health HTTP/1.1\r\nHost: gloam\r\n\r\n";
        let answer = gloam_tests::raw::http(game, request).await;
        assert_eq!(answer.status, 200);
        let report: Value = serde_json::from_slice(&answer.body).expect("JSON");
        assert_eq!((&report["live"], &report["ready"]), (&Value::Bool(true), &Value::Bool(true)));
        let request = b"GET /health/ready HTTP/1.1\r\nHost: gloam\r\n\r\n";
        assert_eq!(gloam_tests::raw::http(health, request).await.status, 200);
    });
}

/// Runs `docker` with `args`; its stdout, or why it failed.
fn docker(args: &[&str]) -> Result<String, String> {
    let out =
        std::process::Command::new("docker").args(args).output().map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        let said = String::from_utf8_lossy(&out.stderr);
        Err(said.lines().last().unwrap_or("failed").trim().to_owned())
    }
}
