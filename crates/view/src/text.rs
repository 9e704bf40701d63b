//! The text view: a board diagram for a terminal or an e-mail, rendered from a JSON view only.

/// `seat (name)`, as the manifest's players name it.
pub fn seat_label(players: &[qijudge_protocol::files::Player], seat: &str) -> String {
    players
        .iter()
        .find(|p| p.seat == seat)
        .map(|p| format!("{seat} ({})", clean(&p.name)))
        .unwrap_or_else(|| seat.to_string())
}

/// The opening lines of a Xiangqi or Liubo text view: `title  view for AUDIENCE`, the record
/// head, the players, a blank line.
pub fn header(
    title: &str,
    players: &[qijudge_protocol::files::Player],
    audience: &str,
    record_head: &str,
) -> String {
    let shown = match audience {
        "public" => "public (spectators)".to_string(),
        seat => seat_label(players, seat),
    };
    let all: Vec<String> = players
        .iter()
        .map(|p| seat_label(players, &p.seat))
        .collect();
    format!(
        "{title}  view for {shown}\nrecord head {record_head}\nPlayers: {}\n\n",
        all.join(", ")
    )
}

/// A player's text made safe for a terminal: control characters (escape sequences among them)
/// become spaces, so a name or comment cannot move the cursor or recolour the screen.
pub fn clean(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// A seat's colour name from a picture's `(seat, colour)` list; empty for a seat not listed.
pub fn colour_of<'a>(colours: &[(&str, &'a str)], seat: &str) -> &'a str {
    colours
        .iter()
        .find(|(s, _)| *s == seat)
        .map_or("", |(_, c)| c)
}
