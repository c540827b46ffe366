//! Markdown as a `.docx`: a Title paragraph, then the Markdown's blocks, with
//! the styles Word and python-docx know by name (`Heading 1` … `Heading 9`,
//! `List Bullet`, `List Number`, `Quote`) and a `Code` style in a
//! monospaced font.

use std::io::Cursor;

use docx_rs::{
    AbstractNumbering, Docx, Level, LevelJc, LevelOverride, LevelText, NumberFormat, Numbering,
    Paragraph, Run, SpecialIndentType, Start, Style, StyleType,
};

use crate::DocumentError;
use crate::blocks::{BULLET_NUMBERING, Block, CODE_FONT, render};

const BULLET_ABSTRACT: usize = 1;
const DECIMAL_ABSTRACT: usize = 2;

/// A new document: `title` in the Title style, then the Markdown.
pub fn to_docx(title: &str, markdown: &str) -> Result<Vec<u8>, DocumentError> {
    crate::check_size(markdown)?;
    let rendered = render(markdown, true, 0);
    let mut doc = with_styles(Docx::new())
        .add_paragraph(
            Paragraph::new()
                .style("Title")
                .add_run(Run::new().add_text(title)),
        )
        .add_abstract_numbering(list_levels(BULLET_ABSTRACT, "bullet"))
        .add_abstract_numbering(list_levels(DECIMAL_ABSTRACT, "decimal"))
        .add_numbering(Numbering::new(BULLET_NUMBERING, BULLET_ABSTRACT));
    for (id, start) in rendered.ordered {
        doc = doc.add_numbering(
            Numbering::new(id, DECIMAL_ABSTRACT).add_override(LevelOverride::new(0).start(start)),
        );
    }
    pack(add_blocks(doc, rendered.blocks))
}

pub(crate) fn add_blocks(mut doc: Docx, blocks: Vec<Block>) -> Docx {
    for block in blocks {
        doc = match block {
            Block::Paragraph(p) => doc.add_paragraph(*p),
            Block::Table(t) => doc.add_table(*t),
        };
    }
    doc
}

pub(crate) fn pack(doc: Docx) -> Result<Vec<u8>, DocumentError> {
    let mut out = Cursor::new(Vec::new());
    doc.build()
        .pack(&mut out)
        .map_err(|e| DocumentError::Write(e.to_string()))?;
    Ok(out.into_inner())
}

/// The paragraph and character styles the blocks name.
pub(crate) fn with_styles(mut doc: Docx) -> Docx {
    let sizes = [40, 32, 28, 26, 24, 22, 22, 22, 22];
    doc = doc.add_style(
        Style::new("Title", StyleType::Paragraph)
            .name("Title")
            .based_on("Normal")
            .size(56)
            .bold(),
    );
    for (i, size) in sizes.into_iter().enumerate() {
        let level = i + 1;
        doc = doc.add_style(
            Style::new(format!("Heading{level}"), StyleType::Paragraph)
                .name(format!("Heading {level}"))
                .based_on("Normal")
                .next("Normal")
                .size(size)
                .bold()
                .outline_lvl(i),
        );
    }
    for (id, name) in [("ListBullet", "List Bullet"), ("ListNumber", "List Number")] {
        doc = doc.add_style(
            Style::new(id, StyleType::Paragraph)
                .name(name)
                .based_on("Normal"),
        );
    }
    doc.add_style(
        Style::new("Quote", StyleType::Paragraph)
            .name("Quote")
            .based_on("Normal")
            .italic(),
    )
    .add_style(
        Style::new("Code", StyleType::Paragraph)
            .name("Code")
            .based_on("Normal")
            .fonts(docx_rs::RunFonts::new().ascii(CODE_FONT).hi_ansi(CODE_FONT))
            .size(20),
    )
    .add_style(
        Style::new("Rule", StyleType::Paragraph)
            .name("Rule")
            .based_on("Normal"),
    )
    .add_style(
        Style::new("Hyperlink", StyleType::Character)
            .name("Hyperlink")
            .color("0563C1")
            .underline("single"),
    )
}

/// Nine indented levels of bullets or decimal numbers.
fn list_levels(id: usize, format: &str) -> AbstractNumbering {
    let mut numbering = AbstractNumbering::new(id);
    for level in 0..9 {
        let text = if format == "bullet" {
            ["•", "◦", "▪"][level % 3].to_owned()
        } else {
            format!("%{}.", level + 1)
        };
        numbering = numbering.add_level(
            Level::new(
                level,
                Start::new(1),
                NumberFormat::new(format),
                LevelText::new(text),
                LevelJc::new("left"),
            )
            .indent(
                Some(720 * (level as i32 + 1)),
                Some(SpecialIndentType::Hanging(360)),
                None,
                None,
            ),
        );
    }
    numbering
}
