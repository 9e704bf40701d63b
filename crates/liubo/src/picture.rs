//! Liubo's board picture, drawn with the shared pieces of [`qijudge_view::picture`].

use crate::view::LiuboView;
use liubo_rules::Station;
use qijudge_view::picture::*;

/// Liubo: the rim and the cross with their stations; stones as discs (seat a blue, seat b red),
/// owls as larger discs marked O; the count on each station.
pub fn liubo(view: &LiuboView) -> String {
    liubo_with(&[], view)
}

/// [`liubo`] with the players' names in the caption.
pub fn liubo_with(players: &[qijudge_protocol::files::Player], view: &LiuboView) -> String {
    draw_liubo(players, view, Some(false)).finish()
}

/// [`liubo_with`], its caption in Chinese with `chinese`.
pub fn liubo_in(
    players: &[qijudge_protocol::files::Player],
    view: &LiuboView,
    chinese: bool,
) -> String {
    draw_liubo(players, view, Some(chinese)).finish()
}

/// The Liubo picture in layers (no caption), for the replay page.
pub fn liubo_layers(players: &[qijudge_protocol::files::Player], view: &LiuboView) -> Layers {
    draw_liubo(players, view, None).layers()
}

fn draw_liubo(
    players: &[qijudge_protocol::files::Player],
    view: &LiuboView,
    caption: Option<bool>,
) -> Svg {
    let (cell, margin) = (70.0, 45.0);
    let place = |s: Station| {
        let (c, r) = crate::view::grid_place(s);
        (margin + c as f64 * cell, margin + r as f64 * cell)
    };
    let name = |seat: &str| {
        players
            .iter()
            .find(|p| p.seat == seat)
            .map(|p| format!(" ({})", qijudge_view::text::clean(&p.name)))
            .unwrap_or_default()
    };
    let chinese = caption == Some(true);
    let with_caption = caption.is_some();
    let mut caption = vec![
        format!("{} turn {}", view.game, view.turns),
        format!("view for {}", view.audience),
        format!(
            "a{} blue, b{} red; O an owl, a number the stones on a station",
            name("a"),
            name("b")
        ),
    ];
    caption.extend(crate::view::state_lines(view));
    if chinese {
        caption = super::chinese::caption(players, view);
    }
    if !with_caption {
        caption.clear();
    }
    let width = margin * 2.0 + 6.0 * cell;
    let mut svg = Svg::new(
        width as u32,
        (width + caption_height(width, &caption) + 10.0) as u32,
        PAPER,
    );
    for (a, b) in liubo_rules::board::edges() {
        let (p, q) = (place(a), place(b));
        // The rim's corners: go round them.
        if p.0 != q.0 && p.1 != q.1 {
            let corner = if (p.1 - margin).abs() < 1.0 || (p.1 - margin - 6.0 * cell).abs() < 1.0 {
                (q.0, p.1)
            } else {
                (p.0, q.1)
            };
            svg.line(p.0, p.1, corner.0, corner.1, INK, 2.0);
            svg.line(corner.0, corner.1, q.0, q.1, INK, 2.0);
        } else {
            svg.line(p.0, p.1, q.0, q.1, INK, 2.0);
        }
    }
    for s in Station::all() {
        let (x, y) = place(s);
        let cardinal = matches!(s.rim_number(), Some(1 | 6 | 11 | 16)) || s == Station::X;
        svg.circle(
            x,
            y,
            if cardinal { 24.0 } else { 20.0 },
            PAPER,
            Some((INK, if cardinal { 2.5 } else { 1.5 })),
        );
    }
    svg.pieces_start();
    for s in Station::all() {
        let (x, y) = place(s);
        let pieces = view.stations.get(&s.to_string());
        match pieces {
            None => svg.label(x, y, &s.to_string(), 2.0, INK),
            Some(p) => {
                svg.label(x, y - 29.0, &s.to_string(), 1.5, INK);
                let a = p.chars().filter(|c| *c == 'a').count();
                let b = p.chars().filter(|c| *c == 'b').count();
                let mut slot = 0.0;
                for (count, owl, colour) in [
                    (a, p.contains('A'), "#1d4e89"),
                    (b, p.contains('B'), "#8c1c13"),
                ] {
                    if owl {
                        svg.circle(x - 8.0 + slot, y, 11.0, colour, Some(("#ffffff", 1.5)));
                        svg.label(x - 8.0 + slot, y, "O", 1.5, "#ffffff");
                        slot += 16.0;
                    }
                    if count > 0 {
                        svg.circle(x - 8.0 + slot, y, 8.0, colour, None);
                        if count > 1 {
                            svg.label(x - 8.0 + slot, y, &count.to_string(), 1.5, "#ffffff");
                        }
                        slot += 16.0;
                    }
                }
            }
        }
    }
    svg.caption(width - 8.0, &caption);
    svg
}
