//! A turn's attached images (`imageBridgeMode`, docs/attachments.md): the
//! session's engine and model decide, by the attachments crate's table,
//! whether the engine reads the images itself (their paths in the prompt),
//! gets a vision model's brief of each (one utility call per image,
//! feature `image_bridge`, on the ledger), or the turn is refused before
//! anything is sent.

use attachments::{Attachment, AttachmentError, AttachmentStore, BridgeMode, EngineFamily, Plan};
use settings::ImageBridgeMode;
use utility::Feature;

use crate::services::App;
use crate::utility_model;

#[derive(Debug, thiserror::Error)]
pub enum ImageTurnError {
    /// The session's model cannot see images and the bridge is off.
    #[error("{0}")]
    NotSupported(String),
    #[error(transparent)]
    Attachment(#[from] AttachmentError),
}

/// The prompt engine `engine` receives for `text` with the attachments
/// `ids`: `text` itself when there are none.
pub async fn prompt_with_images(
    app: &App,
    account_id: &str,
    engine: &str,
    text: &str,
    ids: &[String],
) -> Result<String, ImageTurnError> {
    if ids.is_empty() {
        return Ok(text.to_owned());
    }
    let store = AttachmentStore::open(&app.data_dir)?;
    let images = ids
        .iter()
        .map(|id| store.get(id))
        .collect::<Result<Vec<Attachment>, _>>()?;
    let (family, model) = engine_model(app, engine);
    let sees = attachments::sees_images(family, model.as_deref());
    let mode = match app.settings.image_bridge_mode() {
        ImageBridgeMode::Off => BridgeMode::Off,
        ImageBridgeMode::Auto => BridgeMode::Auto,
    };
    let lines = match attachments::plan(images.len(), sees, mode, engine, model.as_deref()) {
        Plan::Nothing => Vec::new(),
        Plan::Refuse(refusal) => return Err(ImageTurnError::NotSupported(refusal.message)),
        Plan::Direct => images.iter().map(attachments::direct_line).collect(),
        Plan::Bridge => {
            let mut lines = Vec::with_capacity(images.len());
            for image in &images {
                lines.push(describe(app, account_id, image).await);
            }
            lines
        }
    };
    Ok(attachments::with_attachments(text, &lines))
}

/// One image's line for a text-only engine: the vision model's brief, or
/// the reason there is none (the turn goes on without the image).
async fn describe(app: &App, account_id: &str, image: &Attachment) -> String {
    // The call runs on the primary engine, whatever the session's is.
    let model = app.utility.engine().and_then(|engine| {
        let family = match engine.kind {
            utility::EngineKind::Claude => EngineFamily::Claude,
            utility::EngineKind::Codex => EngineFamily::Codex,
        };
        attachments::vision_model(family, &engine.args)
    });
    let ask = utility::Ask {
        feature: Feature::ImageBridge,
        model,
        prompt: attachments::DESCRIBE_PROMPT,
        budget: utility_model::budget(app, Feature::ImageBridge),
    };
    let path = std::path::Path::new(&image.path);
    match app
        .utility
        .describe_image(&ask, path, &image.media_type)
        .await
    {
        Ok(answer) if !answer.text.trim().is_empty() => {
            attachments::bridged_line(image, &answer.text)
        }
        Ok(_) => attachments::failed_line(image, "it gave an empty answer"),
        Err(error) => {
            utility_model::report(app, account_id, Feature::ImageBridge, &error).await;
            attachments::failed_line(image, &error.to_string())
        }
    }
}

/// The engine's family and the model its arguments choose; an engine
/// `engines.toml` does not name (or cannot be read) is left for the spawn
/// or send to refuse, and counts as one that sees nothing.
fn engine_model(app: &App, engine: &str) -> (EngineFamily, Option<String>) {
    let Some(spec) = sessions::engines::load(&app.data_dir)
        .ok()
        .and_then(|mut engines| engines.remove(engine))
    else {
        return (EngineFamily::Other, None);
    };
    let family = match spec.kind {
        sessions::EngineKind::Claude => EngineFamily::Claude,
        sessions::EngineKind::Codex => EngineFamily::Codex,
        sessions::EngineKind::Command => EngineFamily::Other,
    };
    let model = attachments::session_model(family, &spec.args);
    (family, model)
}
