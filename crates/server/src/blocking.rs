//! The one way a handler runs synchronous domain work (SQLite) off the async
//! workers, with the domain's error mapped like any other.

use crate::error::{ApiError, ApiResult};

/// Runs a synchronous domain call (SQLite) off the async workers.
pub(crate) async fn blocking<T, E>(
    work: impl FnOnce() -> Result<T, E> + Send + 'static,
) -> ApiResult<T>
where
    T: Send + 'static,
    E: Send + 'static,
    ApiError: From<E>,
{
    tokio::task::spawn_blocking(work)
        .await
        .map_err(ApiError::internal)?
        .map_err(ApiError::from)
}
