//! Pictures: a game's analysis as an SVG chart or a self-contained HTML page
//! (`volte analyze --svg/--html`), and a match's report page (`volte match --report`).
//! Nothing is fetched: no script, font or image from anywhere; the files open in any
//! browser.
//!
//! The analysis chart draws the score of every position in black's view (positive when
//! black is ahead) over the plies, shades the part the engine solved exactly, marks each
//! move that lost discs with a dot on the score after it (black's errors filled, white's
//! hollow, the area by the discs lost), and draws the players' own evaluations when the
//! game records them (GGF `B[F5/+2]`, the mover's view, turned to black's). Every point
//! carries its values as `data-` attributes, which tests read back.

use crate::engine::ResultKind;
use crate::game::Game;
use crate::jobs::analysis::PlyAnalysis;
use crate::jobs::arena::{MatchGame, Pairing, Tally, TimeUse};
use crate::square::{Color, Move};
use std::fmt::Write;

/// Escapes text for XML and HTML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The score of every position of an analysed game, in black's view: `(ply, score,
/// exact)` from the start to the end (the final position's score is the result).
pub fn black_view_scores(game: &Game, plies: &[PlyAnalysis]) -> Vec<(usize, i32, bool)> {
    let mut out: Vec<(usize, i32, bool)> = plies
        .iter()
        .map(|a| {
            let black = match a.mover {
                Color::Black => a.best_score,
                Color::White => -a.best_score,
            };
            let exact = matches!(a.kind, ResultKind::Exact | ResultKind::WinLossDraw);
            (a.ply, black, exact)
        })
        .collect();
    if let Some(result) = game.final_score_black() {
        out.push((game.moves().len(), result, true));
    }
    out
}

/// The players' own evaluations recorded in the game, in black's view: `(ply, score)` for
/// each colour, each the mover's score of its move, plotted at the position it was played
/// from (where volte's score of that position is).
fn recorded_evals(game: &Game) -> [Vec<(usize, f64)>; 2] {
    let mut out = [Vec::new(), Vec::new()];
    for (ply, m) in game.moves().iter().enumerate() {
        if m.mv == Move::Pass {
            continue;
        }
        if let Some(e) = m.eval.filter(|e| e.is_finite()) {
            let side = game.side_at(ply);
            let black = if side == Color::Black { e } else { -e };
            out[usize::from(side == Color::White)].push((ply, black.clamp(-64.0, 64.0)));
        }
    }
    out
}

/// Chart geometry: the plot area inside margins, and the data ranges.
struct Frame {
    width: f64,
    height: f64,
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
    x_max: f64,
    y_max: f64,
}

impl Frame {
    fn x(&self, ply: f64) -> f64 {
        self.left + (self.width - self.left - self.right) * ply / self.x_max.max(1.0)
    }
    fn y(&self, score: f64) -> f64 {
        let mid = self.top + (self.height - self.top - self.bottom) / 2.0;
        mid - (self.height - self.top - self.bottom) / 2.0 * score / self.y_max
    }
}

fn round_up(v: f64, step: f64) -> f64 {
    ((v / step).ceil() * step).max(step)
}

/// The analysis chart as an SVG document.
pub fn analysis_svg(game: &Game, plies: &[PlyAnalysis], title: &str) -> String {
    let scores = black_view_scores(game, plies);
    let evals = recorded_evals(game);
    let biggest = scores
        .iter()
        .map(|&(_, s, _)| f64::from(s.abs()))
        .chain(evals.iter().flatten().map(|&(_, e)| e.abs()))
        .fold(0.0, f64::max);
    let f = Frame {
        width: 860.0,
        height: 420.0,
        left: 64.0,
        right: 150.0,
        top: 44.0,
        bottom: 48.0,
        x_max: round_up(game.moves().len().max(60) as f64, 10.0),
        y_max: round_up(biggest, 8.0).min(64.0),
    };
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="13" data-x-max="{xm}" data-y-max="{ym}" data-left="{l}" data-right="{r}" data-top="{t}" data-bottom="{b}">
<title>{title}</title>
<rect width="{w}" height="{h}" fill="#ffffff"/>
<text x="{l}" y="26" font-size="16" font-weight="bold" fill="#222">{title}</text>
"##,
        w = f.width,
        h = f.height,
        xm = f.x_max,
        ym = f.y_max,
        l = f.left,
        r = f.right,
        t = f.top,
        b = f.bottom,
        title = escape(title)
    );
    // The exact part.
    if let Some(&(first, _, _)) = scores.iter().find(|&&(_, _, exact)| exact)
        && scores.iter().skip_while(|p| !p.2).all(|p| p.2)
    {
        let x0 = f.x(first as f64);
        let x1 = f.x(scores.last().map_or(f.x_max, |p| p.0 as f64));
        let empties = game.states()[first.min(game.states().len() - 1)]
            .pos
            .n_empties();
        let _ = writeln!(
            s,
            r##"<rect class="exact" x="{x0:.1}" y="{top}" width="{:.1}" height="{:.1}" fill="#e6f2e6"/>
<text x="{:.1}" y="{:.1}" fill="#3a7a3a" font-size="12">exact from {empties} empties</text>"##,
            x1 - x0,
            f.height - f.top - f.bottom,
            x0 + 4.0,
            f.top + 14.0,
            top = f.top
        );
    }
    // Grid and axes.
    let step = if f.y_max > 32.0 { 16.0 } else { 8.0 };
    let lines = (f.y_max / step).floor() as i32;
    for k in -lines..=lines {
        let v = f64::from(k) * step;
        let y = f.y(v);
        let (stroke, width) = if v == 0.0 {
            ("#888", 1.2)
        } else {
            ("#e3e3e3", 1.0)
        };
        let _ = writeln!(
            s,
            r##"<line x1="{l}" y1="{y:.1}" x2="{x2:.1}" y2="{y:.1}" stroke="{stroke}" stroke-width="{width}"/>
<text x="{tx:.1}" y="{ty:.1}" text-anchor="end" fill="#444">{v:+}</text>"##,
            l = f.left,
            x2 = f.x(f.x_max),
            tx = f.left - 8.0,
            ty = y + 4.0,
            v = v as i32
        );
    }
    let mut p = 0.0;
    while p <= f.x_max + 1e-9 {
        let x = f.x(p);
        let _ = writeln!(
            s,
            r##"<line x1="{x:.1}" y1="{y1:.1}" x2="{x:.1}" y2="{y2:.1}" stroke="#999"/>
<text x="{x:.1}" y="{ty:.1}" text-anchor="middle" fill="#444">{p}</text>"##,
            y1 = f.height - f.bottom,
            y2 = f.height - f.bottom + 5.0,
            ty = f.height - f.bottom + 20.0,
            p = p as i32
        );
        p += 10.0;
    }
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" fill="#222">ply</text>
<text transform="translate(18 {:.1}) rotate(-90)" text-anchor="middle" fill="#222">discs, black's view (+: black ahead)</text>
<rect x="{l}" y="{t}" width="{:.1}" height="{:.1}" fill="none" stroke="#999"/>"##,
        (f.left + f.x(f.x_max)) / 2.0,
        f.height - 8.0,
        (f.top + f.height - f.bottom) / 2.0,
        f.x(f.x_max) - f.left,
        f.height - f.top - f.bottom,
        l = f.left,
        t = f.top
    );
    // The players' own evaluations.
    for (k, (points, colour, name)) in [
        (&evals[0], "#b05a00", "black's own evaluation"),
        (&evals[1], "#1f5fbf", "white's own evaluation"),
    ]
    .into_iter()
    .enumerate()
    {
        if points.len() < 2 {
            continue;
        }
        let pts: Vec<String> = points
            .iter()
            .map(|&(ply, e)| format!("{:.1},{:.1}", f.x(ply as f64), f.y(e)))
            .collect();
        let _ = writeln!(
            s,
            r##"<polyline class="recorded recorded-{side}" points="{}" fill="none" stroke="{colour}" stroke-width="1.5" stroke-dasharray="5 3"><title>{name}</title></polyline>"##,
            pts.join(" "),
            side = if k == 0 { "black" } else { "white" }
        );
    }
    // The score curve and its points.
    let pts: Vec<String> = scores
        .iter()
        .map(|&(ply, v, _)| format!("{:.1},{:.1}", f.x(ply as f64), f.y(f64::from(v))))
        .collect();
    let _ = writeln!(
        s,
        r##"<polyline class="score" points="{}" fill="none" stroke="#222" stroke-width="2"/>"##,
        pts.join(" ")
    );
    for &(ply, v, exact) in &scores {
        let _ = writeln!(
            s,
            r##"<circle class="point" data-ply="{ply}" data-score="{v}" data-exact="{exact}" cx="{:.1}" cy="{:.1}" r="2.2" fill="#222"><title>ply {ply}: {v:+}</title></circle>"##,
            f.x(ply as f64),
            f.y(f64::from(v))
        );
    }
    // Errors, on the score after the move.
    for a in plies.iter().filter(|a| a.error > 0) {
        let after = scores.iter().find(|p| p.0 == a.ply + 1).map_or(0, |p| p.1);
        let r = 3.0 + 1.6 * f64::from(a.error).sqrt();
        let (fill, side) = match a.mover {
            Color::Black => ("#222", "black"),
            Color::White => ("#fff", "white"),
        };
        let _ = writeln!(
            s,
            r##"<circle class="error error-{side}" data-ply="{ply}" data-loss="{loss}" cx="{:.1}" cy="{:.1}" r="{r:.1}" fill="{fill}" fill-opacity="0.85" stroke="#c0392b" stroke-width="2"><title>ply {n}: {side} {played} lost {loss} (best {best})</title></circle>"##,
            f.x((a.ply + 1) as f64),
            f.y(f64::from(after)),
            ply = a.ply + 1,
            n = a.ply + 1,
            loss = a.error,
            played = a.played,
            best = a.best_move
        );
    }
    // Legend.
    let lx = f.x(f.x_max) + 16.0;
    let mut ly = f.top + 8.0;
    let mut legend = |s: &mut String, mark: &str, text: &str| {
        let _ = writeln!(
            s,
            r##"<g transform="translate({lx:.1} {ly:.1})">{mark}<text x="24" y="4" fill="#222" font-size="12">{text}</text></g>"##
        );
        ly += 22.0;
    };
    legend(
        &mut s,
        r##"<line x1="0" y1="0" x2="18" y2="0" stroke="#222" stroke-width="2"/>"##,
        "volte's score",
    );
    if evals[0].len() >= 2 {
        legend(
            &mut s,
            r##"<line x1="0" y1="0" x2="18" y2="0" stroke="#b05a00" stroke-width="1.5" stroke-dasharray="5 3"/>"##,
            "black's own eval",
        );
    }
    if evals[1].len() >= 2 {
        legend(
            &mut s,
            r##"<line x1="0" y1="0" x2="18" y2="0" stroke="#1f5fbf" stroke-width="1.5" stroke-dasharray="5 3"/>"##,
            "white's own eval",
        );
    }
    legend(
        &mut s,
        r##"<circle cx="9" cy="0" r="6" fill="#222" stroke="#c0392b" stroke-width="2"/>"##,
        "black's error",
    );
    legend(
        &mut s,
        r##"<circle cx="9" cy="0" r="6" fill="#fff" stroke="#c0392b" stroke-width="2"/>"##,
        "white's error",
    );
    legend(&mut s, "", "(area: discs lost)");
    s.push_str("</svg>\n");
    s
}

const STYLE: &str = "body{font-family:sans-serif;margin:24px;color:#222;max-width:1000px}\
table{border-collapse:collapse;margin:12px 0}td,th{padding:2px 10px;text-align:right;\
border-bottom:1px solid #eee}th{background:#f4f4f4}td.l,th.l{text-align:left}\
.bad{color:#c0392b;font-weight:bold}h1{font-size:20px}h2{font-size:16px;margin-top:24px}";

/// The analysis as one self-contained HTML page: the chart, then every move.
pub fn analysis_html(game: &Game, plies: &[PlyAnalysis], title: &str, search: &str) -> String {
    let mut s = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{t}</title>\
         <style>{STYLE}</style></head><body>\n<h1>{t}</h1>\n<p>{} game, {} plies, {}</p>\n",
        game.variant(),
        game.moves().len(),
        escape(search),
        t = escape(title)
    );
    s.push_str(&analysis_svg(game, plies, title));
    let mut totals = [(0usize, 0i32); 2];
    s.push_str(
        "<h2>Moves</h2>\n<table><tr><th>ply</th><th class=\"l\">side</th><th>played</th>\
         <th>score</th><th>best</th><th>best score</th><th>loss</th></tr>\n",
    );
    for a in plies {
        let side = usize::from(a.mover == Color::White);
        if a.played != Move::Pass {
            totals[side].0 += 1;
            totals[side].1 += a.error;
        }
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td class=\"l\">{}</td><td>{}</td><td>{:+}</td><td>{}</td>\
             <td>{:+}</td><td{}>{}</td></tr>",
            a.ply + 1,
            a.mover,
            a.played,
            a.played_score,
            a.best_move,
            a.best_score,
            if a.error > 0 { " class=\"bad\"" } else { "" },
            if a.error > 0 {
                a.error.to_string()
            } else {
                String::new()
            }
        );
    }
    s.push_str("</table>\n<p>");
    for (k, color) in [Color::Black, Color::White].into_iter().enumerate() {
        let (n, e) = totals[k];
        let _ = write!(
            s,
            "{color}: {n} moves, {e} discs lost, {:.2} a move. ",
            f64::from(e) / n.max(1) as f64
        );
    }
    s.push_str("</p>\n</body></html>\n");
    s
}

/// What a match report shows besides the games.
pub struct MatchInfo<'a> {
    pub first: &'a str,
    pub second: &'a str,
    pub total_games: usize,
    pub time_control: String,
    /// Whether more games are coming (the page then reloads itself every 10 s).
    pub running: bool,
    /// The number the first opening is known by.
    pub first_opening: usize,
}

/// The score curve of a match: after each game, the first engine's Elo estimate and its
/// 95% interval (clamped to ±800 for the picture).
fn elo_svg(games: &[&MatchGame]) -> String {
    let mut tally = Tally::default();
    let mut pairing = Pairing::default();
    let mut points = Vec::new();
    for (k, g) in games.iter().enumerate() {
        pairing.add(&mut tally, g.opening, g.first_score);
        if let Some((e, lo, hi)) = tally.elo() {
            let c = |v: f64| v.clamp(-800.0, 800.0);
            points.push((k + 1, c(e), c(lo), c(hi)));
        }
    }
    let span = points
        .iter()
        .map(|p| p.2.abs().max(p.3.abs()))
        .fold(50.0, f64::max);
    let f = Frame {
        width: 760.0,
        height: 300.0,
        left: 64.0,
        right: 20.0,
        top: 20.0,
        bottom: 44.0,
        x_max: round_up(games.len() as f64, 10.0),
        y_max: round_up(span, 50.0),
    };
    let mut s = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">
<rect width="{w}" height="{h}" fill="#fff"/>
"##,
        w = f.width,
        h = f.height
    );
    let step = round_up(f.y_max / 4.0, 25.0);
    let mut v = -f.y_max;
    while v <= f.y_max + 1e-9 {
        let y = f.y(v);
        let _ = writeln!(
            s,
            r##"<line x1="{l}" y1="{y:.1}" x2="{x2:.1}" y2="{y:.1}" stroke="{c}"/><text x="{tx}" y="{ty:.1}" text-anchor="end" fill="#444">{v:+}</text>"##,
            l = f.left,
            x2 = f.x(f.x_max),
            c = if v == 0.0 { "#888" } else { "#eee" },
            tx = f.left - 6.0,
            ty = y + 4.0,
            v = v as i32
        );
        v += step;
    }
    let xstep = round_up(f.x_max / 10.0, 10.0);
    let mut x = 0.0;
    while x <= f.x_max + 1e-9 {
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" fill="#444">{}</text>"##,
            f.x(x),
            f.height - f.bottom + 16.0,
            x as i32
        );
        x += xstep;
    }
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="middle">games</text><text transform="translate(14 {:.1}) rotate(-90)" text-anchor="middle">Elo of the first engine (95% interval)</text>"##,
        (f.left + f.x(f.x_max)) / 2.0,
        f.height - 6.0,
        (f.top + f.height - f.bottom) / 2.0
    );
    if !points.is_empty() {
        let upper: Vec<String> = points
            .iter()
            .map(|p| format!("{:.1},{:.1}", f.x(p.0 as f64), f.y(p.3)))
            .collect();
        let lower: Vec<String> = points
            .iter()
            .rev()
            .map(|p| format!("{:.1},{:.1}", f.x(p.0 as f64), f.y(p.2)))
            .collect();
        let _ = writeln!(
            s,
            r##"<polygon class="interval" points="{} {}" fill="#cfe0f5" stroke="none"/>"##,
            upper.join(" "),
            lower.join(" ")
        );
        let line: Vec<String> = points
            .iter()
            .map(|p| format!("{:.1},{:.1}", f.x(p.0 as f64), f.y(p.1)))
            .collect();
        let _ = writeln!(
            s,
            r##"<polyline class="elo" points="{}" fill="none" stroke="#1f5fbf" stroke-width="2"/>"##,
            line.join(" ")
        );
    }
    s.push_str("</svg>\n");
    s
}

/// A match's report page: the score and Elo with its interval, its course over the games,
/// the results of every opening pair and each engine's time a move. `games` are those
/// played so far, in the order they ended.
pub fn match_html(info: &MatchInfo, games: &[&MatchGame], openings: &[Game]) -> String {
    let mut tally = Tally::default();
    let mut pairing = Pairing::default();
    let mut time = [TimeUse::default(); 2];
    for g in games {
        pairing.add(&mut tally, g.opening, g.first_score);
        let from = openings[g.opening].moves().len();
        let first = if g.first_is_black {
            Color::Black
        } else {
            Color::White
        };
        time[0].add_game(&g.game, first, from);
        time[1].add_game(&g.game, first.opposite(), from);
    }
    let (a, b) = (escape(info.first), escape(info.second));
    let mut s = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">{}<title>{a} vs {b}</title>\
         <style>{STYLE}</style></head><body>\n<h1>{a} vs {b}</h1>\n<p>{} of {} games{}, {}</p>\n",
        if info.running {
            "<meta http-equiv=\"refresh\" content=\"10\">"
        } else {
            ""
        },
        games.len(),
        info.total_games,
        if info.running { " so far" } else { "" },
        escape(&info.time_control)
    );
    let elo = match tally.elo() {
        // `+ 0.0` turns -0 into 0.
        Some((e, lo, hi)) => format!(
            "{:+.0} Elo (95% interval {:+.0} to {:+.0}, by {})",
            e.round() + 0.0,
            lo.round() + 0.0,
            hi.round() + 0.0,
            if tally.by_pairs() { "pairs" } else { "games" }
        ),
        None => "no Elo yet".to_string(),
    };
    let _ = writeln!(
        s,
        "<p class=\"score\"><b>{a}: +{} ={} -{}, score {:.1}%, {elo}</b>, mean disc difference {:+.2}</p>",
        tally.wins,
        tally.draws,
        tally.losses,
        100.0 * tally.score(),
        tally.mean_discs()
    );
    s.push_str(
        "<h2>Time a move</h2>\n<table><tr><th class=\"l\">engine</th><th>mean</th>\
         <th>longest</th><th>moves</th></tr>\n",
    );
    for (name, t) in [(&a, time[0]), (&b, time[1])] {
        let _ = writeln!(
            s,
            "<tr><td class=\"l\">{name}</td><td>{:.1} ms</td><td>{:.1} ms</td><td>{}</td></tr>",
            1000.0 * t.mean_s(),
            1000.0 * t.longest_s,
            t.moves
        );
    }
    s.push_str("</table>\n<h2>Course of the match</h2>\n");
    s.push_str(&elo_svg(games));
    // Opening pairs.
    let mut by_opening: std::collections::BTreeMap<usize, [Option<&MatchGame>; 2]> =
        Default::default();
    for g in games {
        by_opening.entry(g.opening).or_default()[usize::from(!g.first_is_black)] = Some(g);
    }
    let _ = writeln!(
        s,
        "<h2>Opening pairs</h2>\n<table><tr><th>opening</th><th class=\"l\">line</th>\
         <th>{a} black</th><th>{a} white</th><th>pair</th></tr>"
    );
    for (opening, pair) in &by_opening {
        let cell = |g: Option<&MatchGame>| {
            g.map_or("".to_string(), |g| {
                let mut c = format!("{:+}", g.first_score);
                if g.forfeit.is_some() {
                    c.push_str(" (forfeit)");
                }
                c
            })
        };
        let pair_result = match (pair[0], pair[1]) {
            (Some(x), Some(y)) => {
                match (x.first_score.signum() + y.first_score.signum()).signum() {
                    1 => "won",
                    -1 => "lost",
                    _ => "even",
                }
            }
            _ => "",
        };
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{pair_result}</td></tr>",
            opening + info.first_opening,
            escape(&openings[*opening].transcript()),
            cell(pair[0]),
            cell(pair[1])
        );
    }
    s.push_str("</table>\n</body></html>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Engine, Limits};
    use crate::formats::ggf;

    fn attr(n: &roxmltree::Node, name: &str) -> f64 {
        n.attribute(name).unwrap().parse().unwrap()
    }

    /// The SVG parses, its points are the analysis values in black's view (read back from
    /// their attributes and from their positions on the axes), every move that lost discs
    /// has its mark, and the players' own evaluations are drawn.
    #[test]
    fn the_analysis_chart_holds_the_analysis() {
        let game = ggf::parse_game(
            "(;GM[Othello]PB[A]PW[B]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]\
             B[F5/0]W[F6/-1]B[E6/2]W[F4/-2]B[E3/1]W[C5/-1]B[C4/2]W[E7/-3]B[C6/3]W[E2/-4]B[G5/3]W[G4/-6];)",
        )
        .unwrap();
        let engine = Engine::with_hash(8);
        let plies =
            crate::jobs::analysis::analyze(&engine, &game, &Limits::level(4), &mut |_, _| {});
        let svg = analysis_svg(&game, &plies, "A <vs> B");
        let doc = roxmltree::Document::parse(&svg).expect("the SVG is well-formed XML");
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        let (top, bottom, height, y_max) = (
            attr(&root, "data-top"),
            attr(&root, "data-bottom"),
            attr(&root, "height"),
            attr(&root, "data-y-max"),
        );
        let points: Vec<_> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("point"))
            .collect();
        let expected = black_view_scores(&game, &plies);
        assert_eq!(points.len(), expected.len());
        assert_eq!(points.len(), game.moves().len());
        for (n, &(ply, score, _)) in points.iter().zip(&expected) {
            assert_eq!(attr(n, "data-ply") as usize, ply);
            assert_eq!(attr(n, "data-score") as i32, score);
            // The position on the chart is the score on its axis.
            let mid = top + (height - top - bottom) / 2.0;
            let back = (mid - attr(n, "cy")) / ((height - top - bottom) / 2.0) * y_max;
            assert!(
                (back - f64::from(score)).abs() < 0.1,
                "{back} against {score}"
            );
            let a = plies.iter().find(|a| a.ply == ply).unwrap();
            let mover_view = if a.mover == Color::Black {
                score
            } else {
                -score
            };
            assert_eq!(mover_view, a.best_score);
        }
        let errors = doc
            .descendants()
            .filter(|n| {
                n.attribute("class")
                    .is_some_and(|c| c.starts_with("error "))
            })
            .count();
        assert_eq!(errors, plies.iter().filter(|a| a.error > 0).count());
        for side in ["black", "white"] {
            let line = doc
                .descendants()
                .find(|n| n.attribute("class") == Some(&format!("recorded recorded-{side}")))
                .expect("the recorded evaluations are drawn");
            assert_eq!(line.attribute("points").unwrap().split(' ').count(), 6);
        }
        assert!(svg.contains("A &lt;vs&gt; B"));
        // Self-contained: nothing to fetch.
        let html = analysis_html(&game, &plies, "A vs B", "level 4");
        for page in [&svg, &html] {
            assert!(!page.contains("<script") && !page.contains("href="));
            assert!(
                !page
                    .replace("http://www.w3.org/2000/svg", "")
                    .contains("http")
            );
        }
        assert!(html.contains("<svg") && html.contains("<table>"));
    }

    #[test]
    fn the_match_report_shows_the_score_the_pairs_and_the_times() {
        let openings = vec![Game::new(crate::rules::Variant::Othello)];
        let mut game = Game::new(crate::rules::Variant::Othello);
        game.play_record(crate::game::MoveRecord {
            mv: Move::parse("f5").unwrap(),
            eval: None,
            time_s: Some(0.25),
        })
        .unwrap();
        let games = [
            MatchGame {
                opening: 0,
                first_is_black: true,
                first_score: 10,
                game: game.clone(),
                forfeit: None,
            },
            MatchGame {
                opening: 0,
                first_is_black: false,
                first_score: -4,
                game,
                forfeit: None,
            },
        ];
        let refs: Vec<&MatchGame> = games.iter().collect();
        let info = MatchInfo {
            first: "new",
            second: "base",
            total_games: 4,
            time_control: "0.1 s a move".into(),
            running: true,
            first_opening: 7,
        };
        let page = match_html(&info, &refs, &openings);
        assert!(
            page.contains("new: +1 =0 -1, score 50.0%, +0 Elo"),
            "{page}"
        );
        // One pair: the interval is the games'.
        assert!(page.contains(", by games)"), "{page}");
        assert!(
            page.contains("<td>7</td>") && page.contains("<td>+10</td><td>-4</td><td>even</td>")
        );
        // The first engine played f5 as black in 250 ms; the other played nothing.
        assert!(
            page.contains("<td class=\"l\">new</td><td>250.0 ms</td><td>250.0 ms</td><td>1</td>")
        );
        assert!(page.contains("http-equiv=\"refresh\""));
        assert!(!page.contains("<script"));
        let done = match_html(
            &MatchInfo {
                running: false,
                ..info
            },
            &refs,
            &openings,
        );
        assert!(!done.contains("refresh"));
    }
}
