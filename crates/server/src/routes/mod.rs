//! One route table per domain, merged in `api()` so every URL can be found by
//! grep. The same table serves both listeners: at the root of the control
//! server and under `/api` on the UI server.

use axum::Router;

use crate::state::AppState;

mod accounts;
mod app;
mod inbox;
mod settings;
pub mod ui;

pub fn api() -> Router<AppState> {
    Router::new()
        .merge(settings::routes())
        .merge(accounts::routes())
        .merge(inbox::routes())
        .merge(app::routes())
}
