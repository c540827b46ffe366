//! A JSON body extractor whose every rejection speaks the contract's error
//! shape, so truncated JSON, a wrong field type or an oversized body never
//! reach the client as the framework's plain-text messages.

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::{StatusCode, header};
use serde::de::DeserializeOwned;

use crate::error::ApiError;

pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(value)) => Ok(ApiJson(value)),
            Err(rejection) => Err(from_rejection(rejection)),
        }
    }
}

/// A JSON body the client may leave out: a request without one (no
/// `Content-Length`, or `Content-Length: 0`, and not chunked) reads as
/// `T::default()`; a body that is there must be JSON like [`ApiJson`]'s.
pub struct OptionalJson<T>(pub T);

impl<S, T> FromRequest<S> for OptionalJson<T>
where
    T: DeserializeOwned + Default,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let headers = req.headers();
        let length = headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok());
        let chunked = headers.contains_key(header::TRANSFER_ENCODING);
        if !chunked && length.unwrap_or(0) == 0 {
            return Ok(OptionalJson(T::default()));
        }
        let ApiJson(value) = ApiJson::from_request(req, state).await?;
        Ok(OptionalJson(value))
    }
}

fn from_rejection(rejection: JsonRejection) -> ApiError {
    match rejection {
        JsonRejection::MissingJsonContentType(_) => {
            ApiError::for_status(StatusCode::UNSUPPORTED_MEDIA_TYPE)
        }
        JsonRejection::JsonSyntaxError(e) => ApiError::bad_request(
            "invalid_json",
            format!("The body is not valid JSON: {}", e.body_text()),
        ),
        JsonRejection::JsonDataError(e) => ApiError::bad_request(
            "invalid_request",
            format!(
                "The body does not have the expected fields: {}",
                e.body_text()
            ),
        ),
        JsonRejection::BytesRejection(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            ApiError::for_status(StatusCode::PAYLOAD_TOO_LARGE)
        }
        other => ApiError::bad_request("invalid_request", other.body_text()),
    }
}
