//! Markdown events turned into docx-rs paragraphs and tables. Styles are
//! named by id (`Heading1`, `ListBullet`, `Code`, …) and defined in
//! [`crate::docx`]; list paragraphs get real Word numbering when `numbering`
//! is on, else a typed marker (a template's numbering definitions are not
//! ours to extend).

use docx_rs::{
    BreakType, Hyperlink, HyperlinkType, IndentLevel, NumberingId, Paragraph, Run, RunFonts, Table,
    TableCell, TableRow,
};
use pulldown_cmark::{Event, HeadingLevel, Parser, Tag, TagEnd};

pub(crate) enum Block {
    Paragraph(Box<Paragraph>),
    Table(Box<Table>),
}

/// The numbering instances the blocks use: `(id, start)` of each ordered list
/// (the bullet instance is always [`BULLET_NUMBERING`]).
pub(crate) struct Rendered {
    pub blocks: Vec<Block>,
    pub ordered: Vec<(usize, usize)>,
}

pub(crate) const BULLET_NUMBERING: usize = 1;
pub(crate) const CODE_FONT: &str = "Courier New";

struct List {
    /// `Some(next number)` for an ordered list.
    next: Option<u64>,
    numbering: usize,
}

#[derive(Default)]
struct Inline {
    bold: bool,
    italic: bool,
    strike: bool,
    link: Option<String>,
}

struct Renderer {
    numbering: bool,
    heading_shift: usize,
    blocks: Vec<Block>,
    ordered: Vec<(usize, usize)>,
    paragraph: Option<Paragraph>,
    lists: Vec<List>,
    /// The style and list marker for the next paragraph opened in an item.
    item: Option<(String, String)>,
    quote: usize,
    inline: Inline,
    code: Option<String>,
    table: Option<(Vec<TableRow>, Vec<TableCell>, bool)>,
    heading: Option<usize>,
}

/// `heading_shift` moves Markdown headings down (a template section's own
/// heading is level 1, so its `#` becomes Heading 2).
pub(crate) fn render(markdown: &str, numbering: bool, heading_shift: usize) -> Rendered {
    let mut r = Renderer {
        numbering,
        heading_shift,
        blocks: Vec::new(),
        ordered: Vec::new(),
        paragraph: None,
        lists: Vec::new(),
        item: None,
        quote: 0,
        inline: Inline::default(),
        code: None,
        table: None,
        heading: None,
    };
    for event in Parser::new_ext(markdown, crate::html::options()) {
        r.event(event);
    }
    r.flush();
    Rendered {
        blocks: r.blocks,
        ordered: r.ordered,
    }
}

impl Renderer {
    fn event(&mut self, event: Event) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(text) | Event::Html(text) | Event::InlineHtml(text) => {
                if let Some(code) = self.code.as_mut() {
                    code.push_str(&text);
                } else {
                    self.text(&text, false);
                }
            }
            Event::Code(text) => self.text(&text, true),
            Event::InlineMath(text) | Event::DisplayMath(text) => self.text(&text, true),
            Event::SoftBreak => self.text(" ", false),
            Event::HardBreak => {
                let p = self.open();
                *p = std::mem::take(p).add_run(Run::new().add_break(BreakType::TextWrapping));
            }
            Event::Rule => {
                self.flush();
                self.blocks
                    .push(Block::Paragraph(Box::new(Paragraph::new().style("Rule"))));
            }
            Event::TaskListMarker(done) => self.text(if done { "☑ " } else { "☐ " }, false),
            Event::FootnoteReference(name) => self.text(&format!("[{name}]"), false),
        }
    }

    fn start(&mut self, tag: Tag) {
        match tag {
            Tag::Paragraph if self.table.is_none() => self.flush(),
            Tag::Heading { level, .. } => {
                self.flush();
                let n = match level {
                    HeadingLevel::H1 => 1,
                    HeadingLevel::H2 => 2,
                    HeadingLevel::H3 => 3,
                    HeadingLevel::H4 => 4,
                    HeadingLevel::H5 => 5,
                    HeadingLevel::H6 => 6,
                };
                self.heading = Some((n + self.heading_shift).min(9));
            }
            Tag::BlockQuote(_) => {
                self.flush();
                self.quote += 1;
            }
            Tag::CodeBlock(_) => {
                self.flush();
                self.code = Some(String::new());
            }
            Tag::List(start) => {
                self.flush();
                let numbering = match start {
                    Some(first) => {
                        let id = BULLET_NUMBERING + 1 + self.ordered.len();
                        self.ordered.push((id, first as usize));
                        id
                    }
                    None => BULLET_NUMBERING,
                };
                self.lists.push(List {
                    next: start,
                    numbering,
                });
            }
            Tag::Item => {
                self.flush();
                let depth = self.lists.len().saturating_sub(1);
                let (style, marker) = match self.lists.last_mut() {
                    Some(List { next: Some(n), .. }) => {
                        let marker = format!("{n}. ");
                        *n += 1;
                        ("ListNumber", marker)
                    }
                    _ => ("ListBullet", "• ".to_owned()),
                };
                let marker = format!("{}{marker}", "    ".repeat(depth));
                self.item = Some((style.to_owned(), marker));
            }
            Tag::Table(_) => {
                self.flush();
                self.table = Some((Vec::new(), Vec::new(), false));
            }
            Tag::TableHead => {
                if let Some(t) = self.table.as_mut() {
                    t.2 = true;
                }
            }
            Tag::TableRow | Tag::TableCell => {}
            Tag::Emphasis => self.inline.italic = true,
            Tag::Strong => self.inline.bold = true,
            Tag::Strikethrough => self.inline.strike = true,
            Tag::Link { dest_url, .. } => self.inline.link = Some(dest_url.into_string()),
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph if self.table.is_none() => self.flush(),
            TagEnd::Heading(_) => {
                self.flush();
                self.heading = None;
            }
            TagEnd::BlockQuote(_) => {
                self.flush();
                self.quote = self.quote.saturating_sub(1);
            }
            TagEnd::CodeBlock => {
                let code = self.code.take().unwrap_or_default();
                let mut p = Paragraph::new().style("Code");
                for (i, line) in code.trim_end_matches('\n').split('\n').enumerate() {
                    let mut run = Run::new().fonts(mono());
                    if i > 0 {
                        run = run.add_break(BreakType::TextWrapping);
                    }
                    p = p.add_run(run.add_text(line));
                }
                self.blocks.push(Block::Paragraph(Box::new(p)));
            }
            TagEnd::List(_) => {
                self.flush();
                self.lists.pop();
            }
            TagEnd::Item => {
                self.flush();
                self.item = None;
            }
            TagEnd::TableCell => {
                let p = self.paragraph.take().unwrap_or_default();
                if let Some((_, cells, _)) = self.table.as_mut() {
                    cells.push(TableCell::new().add_paragraph(p));
                }
            }
            TagEnd::TableHead | TagEnd::TableRow => {
                if let Some((rows, cells, head)) = self.table.as_mut() {
                    rows.push(TableRow::new(std::mem::take(cells)));
                    if matches!(tag, TagEnd::TableHead) {
                        *head = false;
                    }
                }
            }
            TagEnd::Table => {
                if let Some((rows, _, _)) = self.table.take() {
                    self.blocks.push(Block::Table(Box::new(Table::new(rows))));
                }
            }
            TagEnd::Emphasis => self.inline.italic = false,
            TagEnd::Strong => self.inline.bold = false,
            TagEnd::Strikethrough => self.inline.strike = false,
            TagEnd::Link => self.inline.link = None,
            _ => {}
        }
    }

    /// The paragraph being written, opened with the style its context asks.
    fn open(&mut self) -> &mut Paragraph {
        if self.paragraph.is_none() {
            // Named outright: docx-rs marks no style as the default one.
            let mut p = Paragraph::new().style("Normal");
            if let Some(level) = self.heading {
                p = p.style(&format!("Heading{level}"));
            } else if let Some((style, marker)) = self.item.take() {
                p = p.style(&style);
                let depth = self.lists.len().saturating_sub(1);
                match (self.numbering, self.lists.last()) {
                    (true, Some(list)) => {
                        p = p.numbering(
                            NumberingId::new(list.numbering),
                            IndentLevel::new(depth.min(8)),
                        );
                    }
                    _ => p = p.add_run(Run::new().add_text(marker)),
                }
            } else if self.quote > 0 {
                p = p
                    .style("Quote")
                    .indent(Some(720 * self.quote as i32), None, None, None);
            }
            self.paragraph = Some(p);
        }
        self.paragraph.get_or_insert_with(Paragraph::new)
    }

    fn text(&mut self, text: &str, code: bool) {
        let mut run = Run::new().add_text(text);
        if code {
            run = run.fonts(mono());
        }
        if self.inline.bold || self.table.as_ref().is_some_and(|t| t.2) {
            run = run.bold();
        }
        if self.inline.italic {
            run = run.italic();
        }
        if self.inline.strike {
            run = run.strike();
        }
        let link = self.inline.link.clone();
        let p = self.open();
        let taken = std::mem::take(p);
        *p = match link {
            Some(url) => taken.add_hyperlink(
                Hyperlink::new(url, HyperlinkType::External).add_run(run.style("Hyperlink")),
            ),
            None => taken.add_run(run),
        };
    }

    fn flush(&mut self) {
        if let Some(p) = self.paragraph.take() {
            self.blocks.push(Block::Paragraph(Box::new(p)));
        }
    }
}

fn mono() -> RunFonts {
    RunFonts::new()
        .ascii(CODE_FONT)
        .hi_ansi(CODE_FONT)
        .cs(CODE_FONT)
}
