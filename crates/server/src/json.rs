//! A JSON body extractor whose every rejection speaks the contract's error
//! shape, so truncated JSON, a wrong field type or an oversized body never
//! reach the client as the framework's plain-text messages.

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
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
