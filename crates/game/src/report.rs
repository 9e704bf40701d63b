//! What a command has to say. Commands below the command line never print: they return a
//! [`Report`], and the command line's one printer (`cli::report`) writes it out.

use qijudge_protocol::error::Error;

/// One thing a command shows.
#[derive(Debug, Clone, PartialEq)]
pub enum Out {
    /// A line of text (the printer ends it).
    Line(String),
    /// Text shown as it is: a rendered view, a signed JSON file.
    Text(String),
    /// A JSON value, shown pretty-printed.
    Json(serde_json::Value),
    /// A note for the person at the terminal, beside what is shown (standard error).
    Note(String),
    /// A picture as SVG, shown as SVG or, for `png`, as PNG bytes.
    Picture { svg: String, png: bool },
}

/// What a command did, in order, and the refusal that stopped it after that (exit code 1): a
/// judge run that took some files and then refused one says both.
#[derive(Debug, Default)]
#[must_use]
pub struct Report {
    pub out: Vec<Out>,
    pub refusal: Option<Error>,
}

impl Report {
    /// A report of lines.
    pub fn lines<S: Into<String>>(lines: impl IntoIterator<Item = S>) -> Report {
        Report {
            out: lines.into_iter().map(|l| Out::Line(l.into())).collect(),
            refusal: None,
        }
    }

    /// A report of one line.
    pub fn line(line: impl Into<String>) -> Report {
        Report::lines([line])
    }

    /// A report of one thing shown.
    pub fn of(out: Out) -> Report {
        Report {
            out: vec![out],
            refusal: None,
        }
    }

    /// Adds a line.
    pub fn say(&mut self, line: impl Into<String>) {
        self.out.push(Out::Line(line.into()));
    }

    /// The report's lines of text, in order (what mail and CI pass on).
    pub fn text_lines(&self) -> Vec<String> {
        self.out
            .iter()
            .filter_map(|o| match o {
                Out::Line(l) => Some(l.clone()),
                _ => None,
            })
            .collect()
    }

    /// The report as a result: `Err` with the refusal, if any, once what was done is known.
    pub fn into_result(self) -> qijudge_protocol::error::Result<Vec<Out>> {
        match self.refusal {
            Some(e) => Err(e),
            None => Ok(self.out),
        }
    }
}
