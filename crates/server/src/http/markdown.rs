//! A rules page's Markdown as HTML, rendered here with `pulldown-cmark` (CommonMark with
//! tables) so that the browser needs no Markdown code of its own. Raw HTML in the
//! source is shown as text, never passed through: a page can carry no markup or
//! script of its own. Each heading gets an `id` from its text (`## Actions` →
//! `id="actions"`), so a link can name a section.

use pulldown_cmark::{html, CowStr, Event, Options, Parser, Tag, TagEnd};

/// `markdown` as an HTML fragment.
pub fn to_html(markdown: &str) -> String {
    let mut events: Vec<Event> = Vec::new();
    // A heading's events wait here until its end, when its text (and so its id) is known.
    let mut heading: Option<Vec<Event>> = None;
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        let event = match event {
            Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => Event::Start(Tag::Link {
                link_type,
                dest_url: safe_target(dest_url),
                title,
                id,
            }),
            other => other,
        };
        match (&mut heading, event) {
            (None, Event::Start(Tag::Heading { .. })) => heading = Some(Vec::new()),
            (Some(inside), Event::End(TagEnd::Heading(level))) => {
                let text: String = inside
                    .iter()
                    .filter_map(|event| match event {
                        Event::Text(text) | Event::Code(text) => Some(text.as_ref()),
                        _ => None,
                    })
                    .collect();
                events.push(Event::Start(Tag::Heading {
                    level,
                    id: Some(CowStr::from(slug(&text))),
                    classes: Vec::new(),
                    attrs: Vec::new(),
                }));
                events.append(inside);
                events.push(Event::End(TagEnd::Heading(level)));
                heading = None;
            }
            (Some(inside), event) => inside.push(event),
            (None, event) => events.push(event),
        }
    }
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, events.into_iter());
    out
}

/// A link's target, unless it names a scheme other than http(s) or mailto
/// (`javascript:` say), which becomes `#`.
fn safe_target(target: CowStr) -> CowStr {
    let scheme = target
        .split_once(':')
        .map(|(scheme, _)| scheme)
        .filter(|scheme| !scheme.contains(['/', '?', '#']));
    match scheme {
        Some(scheme)
            if !["http", "https", "mailto"].contains(&scheme.to_ascii_lowercase().as_str()) =>
        {
            CowStr::from("#")
        }
        _ => target,
    }
}

/// A heading's anchor: lower case, letters, digits and dashes.
fn slug(text: &str) -> String {
    let kept: String = text
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || c.is_whitespace() || *c == '-')
        .collect();
    kept.split_whitespace().collect::<Vec<_>>().join("-")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_get_ids_and_tables_render() {
        let page =
            to_html("# Secret Nim (`nim`)\n\n## How to play\n\n| a | b |\n|---|---|\n| 1 | 2 |\n");
        assert!(
            page.contains(r#"<h1 id="secret-nim-nim">Secret Nim (<code>nim</code>)</h1>"#),
            "{page}"
        );
        assert!(
            page.contains(r#"<h2 id="how-to-play">How to play</h2>"#),
            "{page}"
        );
        assert!(
            page.contains("<table>") && page.contains("<td>2</td>"),
            "{page}"
        );
    }

    #[test]
    fn raw_html_is_shown_as_text() {
        let page = to_html("<script>alert(1)</script>\n\nA <b onclick=x>bold</b> word.\n");
        assert!(!page.contains("<script") && !page.contains("<b "), "{page}");
        assert!(
            page.contains("&lt;script&gt;") && page.contains("&lt;b onclick=x&gt;"),
            "{page}"
        );
        let links =
            to_html("[a](javascript:alert(1)) [b](https://example.org) [c](#actions) [d](../x.md)");
        assert!(!links.contains("javascript"), "{links}");
        for kept in ["https://example.org", "#actions", "../x.md"] {
            assert!(links.contains(&format!(r#"href="{kept}""#)), "{links}");
        }
    }

    #[test]
    fn every_rules_page_renders_with_its_title() {
        for ruleset in arbiter_rulesets::all() {
            let page = to_html(ruleset.game.rules_page());
            assert!(page.starts_with("<h1 id="), "{}: {page:.80}", ruleset.id());
        }
    }
}
