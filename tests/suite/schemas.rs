//! The JSON Schemas in `schemas/` are generated from the Rust types; this test fails when they
//! drift. Regenerate with `QIJUDGE_WRITE_SCHEMAS=1 cargo test schemas`.

use qijudge::schemas::all;
use std::path::Path;

#[test]
fn schemas_match_the_types() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
    let write = std::env::var_os("QIJUDGE_WRITE_SCHEMAS").is_some();
    for (name, schema) in all() {
        let path = dir.join(&name);
        if write {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &schema).unwrap();
        }
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(
            on_disk, schema,
            "schemas/{name} is out of date: run QIJUDGE_WRITE_SCHEMAS=1 cargo test schemas"
        );
    }
    let listed: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        listed.len(),
        all().len(),
        "schemas/ holds a schema no type generates"
    );
}

#[test]
fn shipped_files_validate_against_their_schemas() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let sample = root.join("games/luzhanqi/sample");
    let schema = |name: &str| -> serde_json::Value {
        let text = all().into_iter().find(|(n, _)| n == name).unwrap().1;
        serde_json::from_str(&text).unwrap()
    };
    let check = |schema_name: &str, value: serde_json::Value| {
        let s = schema(schema_name);
        let compiled = jsonschema::JSONSchema::compile(&s).unwrap();
        let problems: Vec<String> = match compiled.validate(&value) {
            Ok(()) => Vec::new(),
            Err(errors) => errors.map(|e| e.to_string()).collect(),
        };
        assert!(problems.is_empty(), "{schema_name}: {problems:?}");
    };
    let toml_json = |rel: &str| -> serde_json::Value {
        let v: toml::Value =
            toml::from_str(&std::fs::read_to_string(sample.join(rel)).unwrap()).unwrap();
        serde_json::to_value(v).unwrap()
    };
    check("manifest.schema.json", toml_json("game.toml"));
    check(
        "commitment.schema.json",
        toml_json("commitments/south.toml"),
    );
    check("setup.schema.json", toml_json("reveal/north.toml"));
    check("move.schema.json", toml_json("moves/0001-south.toml"));
    for line in std::fs::read_to_string(sample.join("record.jsonl"))
        .unwrap()
        .lines()
    {
        check(
            "record-line.schema.json",
            serde_json::from_str(line).unwrap(),
        );
    }
    for v in ["south", "north", "public", "full"] {
        check(
            "view.schema.json",
            serde_json::from_str(
                &std::fs::read_to_string(sample.join(format!("views/{v}.json"))).unwrap(),
            )
            .unwrap(),
        );
    }
    // The Xiangqi, Liubo and Jieqi samples.
    let file_json = |dir: &Path, rel: &str| -> serde_json::Value {
        let text = std::fs::read_to_string(dir.join(rel)).unwrap();
        if rel.ends_with(".toml") {
            serde_json::to_value(toml::from_str::<toml::Value>(&text).unwrap()).unwrap()
        } else {
            serde_json::from_str(&text).unwrap()
        }
    };
    let xq = root.join("games/xiangqi/sample");
    check("xiangqi-manifest.schema.json", file_json(&xq, "game.toml"));
    check("move.schema.json", file_json(&xq, "moves/0001-red.toml"));
    for v in ["red", "black", "public"] {
        check(
            "xiangqi-view.schema.json",
            file_json(&xq, &format!("views/{v}.json")),
        );
    }
    let lb = root.join("games/liubo/sample");
    check("liubo-manifest.schema.json", file_json(&lb, "game.toml"));
    check(
        "liubo-chain-commitment.schema.json",
        file_json(&lb, "commitments/a.toml"),
    );
    check("liubo-seed.schema.json", file_json(&lb, "reveal/b.toml"));
    check("move.schema.json", file_json(&lb, "moves/0001-b.toml"));
    for v in ["a", "b", "public"] {
        check(
            "liubo-view.schema.json",
            file_json(&lb, &format!("views/{v}.json")),
        );
    }
    let jq = root.join("games/jieqi/sample");
    check("jieqi-manifest.schema.json", file_json(&jq, "game.toml"));
    check(
        "jieqi-nonce-commitment.schema.json",
        file_json(&jq, "commitments/red.toml"),
    );
    check(
        "jieqi-nonce.schema.json",
        file_json(&jq, "reveal/black.toml"),
    );
    check("move.schema.json", file_json(&jq, "moves/0001-red.toml"));
    for v in ["red", "black", "public"] {
        check(
            "jieqi-view.schema.json",
            file_json(&jq, &format!("views/{v}.json")),
        );
    }
    let bq = root.join("games/banqi/sample");
    check("banqi-manifest.schema.json", file_json(&bq, "game.toml"));
    check(
        "jieqi-nonce-commitment.schema.json",
        file_json(&bq, "commitments/first.toml"),
    );
    check(
        "jieqi-nonce.schema.json",
        file_json(&bq, "reveal/second.toml"),
    );
    check("move.schema.json", file_json(&bq, "moves/0001-first.toml"));
    for v in ["first", "second", "public"] {
        check(
            "banqi-view.schema.json",
            file_json(&bq, &format!("views/{v}.json")),
        );
    }
    for dir in [&xq, &lb, &jq, &bq] {
        for line in std::fs::read_to_string(dir.join("record.jsonl"))
            .unwrap()
            .lines()
        {
            check(
                "record-line.schema.json",
                serde_json::from_str(line).unwrap(),
            );
        }
    }
}
