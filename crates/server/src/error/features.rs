//! The mappings of the later features' errors (feeds, files, apps, imports,
//! attachments, mail, documents and sheets, texts and the messenger) to
//! statuses, kept apart from `error.rs` so each file stays readable; the
//! rule is the same: a domain error becomes a status here and nowhere else.

use app::mail_error::MailClientError;
use axum::http::StatusCode;

use super::ApiError;

impl From<feeds::FeedError> for ApiError {
    fn from(error: feeds::FeedError) -> Self {
        use feeds::FeedError;
        match error {
            FeedError::NotFound | FeedError::EntryNotFound => {
                ApiError::not_found("not_found", error.to_string())
            }
            FeedError::Invalid(message) => ApiError::bad_request("invalid_request", message),
            FeedError::Exists(_) => {
                ApiError::new(StatusCode::CONFLICT, "feed_exists", error.to_string())
            }
            FeedError::Store(e) => ApiError::internal(e),
        }
    }
}

impl From<drives::DriveError> for ApiError {
    fn from(error: drives::DriveError) -> Self {
        use drives::DriveError as E;
        let (status, code, field) = match &error {
            E::BadPath { .. } => (StatusCode::BAD_REQUEST, "invalid_path", Some("path")),
            E::Invalid { field, .. } => (StatusCode::BAD_REQUEST, "invalid_request", Some(*field)),
            E::Io(_) => (StatusCode::BAD_REQUEST, "invalid_request", None),
            E::NoSuchDrive | E::NotFound(_) => (StatusCode::NOT_FOUND, "not_found", None),
            E::Disabled(_) => (StatusCode::FORBIDDEN, "drive_disabled", None),
            E::SlotTaken(_) => (StatusCode::CONFLICT, "drive_slot_taken", None),
            E::Conflict(_) => (StatusCode::CONFLICT, "conflict", None),
            E::Refused { .. } => (StatusCode::CONFLICT, "drive_credentials_refused", None),
            E::Remote(_) | E::Config(_) => (StatusCode::CONFLICT, "drive_failed", None),
            E::TooLarge { .. } => (StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large", None),
            E::Secrets(_) => return ApiError::internal(error),
        };
        ApiError::new(status, code, error.to_string()).on_field(field)
    }
}

impl From<app::session_files::SessionFileError> for ApiError {
    fn from(error: app::session_files::SessionFileError) -> Self {
        use app::session_files::SessionFileError as E;
        let message = error.to_string();
        match error {
            E::Session(e) => e.into(),
            E::Drive(e) => e.into(),
            E::Invalid { field, .. } => {
                ApiError::bad_request("invalid_request", message).on_field(Some(field))
            }
            E::Refused(_) => {
                ApiError::new(StatusCode::CONFLICT, "session_folder_unavailable", message)
            }
        }
    }
}

impl From<calendar::CalendarError> for ApiError {
    fn from(error: calendar::CalendarError) -> Self {
        use calendar::CalendarError as E;
        let message = error.to_string();
        match error {
            E::Invalid { field, .. } => {
                ApiError::bad_request("invalid_request", message).on_field(Some(field))
            }
            E::NotFound(_) => ApiError::not_found("not_found", message),
            E::Remote(_) | E::Ics(_) => {
                ApiError::new(StatusCode::CONFLICT, "calendar_sync_failed", message)
            }
            E::Secrets(_) | E::Store(_) => ApiError::internal(error),
        }
    }
}

impl From<apps::AppsError> for ApiError {
    fn from(error: apps::AppsError) -> Self {
        use apps::AppsError as E;
        let message = error.to_string();
        match error {
            E::RangeExhausted { .. } => {
                ApiError::new(StatusCode::CONFLICT, "port_range_exhausted", message)
            }
            E::NameTaken(_) => ApiError::new(StatusCode::CONFLICT, "app_running", message),
            E::NotStarted(_) => ApiError::new(StatusCode::CONFLICT, "not_started", message),
            E::NotFound(_) => ApiError::not_found("not_found", message),
            E::Config { .. } => ApiError::bad_request("invalid_value", message),
            E::InvalidName { .. } => {
                ApiError::bad_request("invalid_value", message).on_field(Some("name"))
            }
            E::Runner(_) => ApiError::new(StatusCode::BAD_GATEWAY, "runner_unavailable", message),
            E::Spawn(_) => ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "app_not_started",
                message,
            ),
        }
    }
}

impl From<imports::ImportError> for ApiError {
    /// Every failed import is the pasted URL's fault or its server's, never
    /// ours: the composer shows the message and keeps the bare URL.
    fn from(error: imports::ImportError) -> Self {
        use imports::ImportError as E;
        let on_url = matches!(error, E::InvalidUrl(_) | E::UnsupportedScheme(_));
        ApiError::bad_request("import_failed", error.to_string()).on_field(on_url.then_some("url"))
    }
}

impl From<attachments::AttachmentError> for ApiError {
    fn from(error: attachments::AttachmentError) -> Self {
        use attachments::AttachmentError as E;
        let message = error.to_string();
        match error {
            E::UnsupportedType(_) | E::NotThatType(_) => ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
                message,
            ),
            E::TooLarge { .. } => {
                ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large", message)
            }
            E::Empty => ApiError::bad_request("invalid_request", message),
            E::NotFound(_) => ApiError::bad_request("attachment_not_found", message),
            E::Io(e) => ApiError::internal(e),
        }
    }
}

impl From<app::image_turns::ImageTurnError> for ApiError {
    fn from(error: app::image_turns::ImageTurnError) -> Self {
        use app::image_turns::ImageTurnError as E;
        match error {
            E::NotSupported(message) => ApiError::bad_request("image_not_supported", message),
            E::Attachment(e) => e.into(),
        }
    }
}

impl From<MailClientError> for ApiError {
    fn from(error: MailClientError) -> Self {
        let message = error.to_string();
        match error {
            MailClientError::Invalid { field, .. } => {
                ApiError::bad_request("invalid_request", message).on_field(Some(field))
            }
            MailClientError::NotFound(_) => ApiError::not_found("not_found", message),
            MailClientError::ReadOnly(_) => {
                ApiError::new(StatusCode::CONFLICT, "read_only", message)
            }
            MailClientError::Client(mailclient::ClientError::NoFolder(_)) => {
                ApiError::new(StatusCode::CONFLICT, "no_such_folder", message)
            }
            MailClientError::Unreachable(_)
            | MailClientError::Mail(_)
            | MailClientError::Client(_) => {
                ApiError::new(StatusCode::BAD_GATEWAY, "mail_server_failed", message)
            }
            MailClientError::Summary(utility::UtilityError::NoEngine) => {
                ApiError::new(StatusCode::CONFLICT, "no_utility_engine", message)
            }
            MailClientError::Summary(utility::UtilityError::Capped { .. }) => {
                ApiError::new(StatusCode::TOO_MANY_REQUESTS, "daily_cap_reached", message)
            }
            MailClientError::Summary(
                utility::UtilityError::Failed(_) | utility::UtilityError::Invalid(_),
            ) => ApiError::new(StatusCode::BAD_GATEWAY, "utility_model_failed", message),
            other => ApiError::internal(other),
        }
    }
}

impl From<app::office_error::OfficeError> for ApiError {
    fn from(error: app::office_error::OfficeError) -> Self {
        use app::office_error::OfficeError as E;
        use documents::DocumentError as D;
        use sheets::SheetError as S;
        let error = match error {
            E::Drive(e) => return e.into(),
            E::Board(e) => return e.into(),
            E::Session(e) => return e.into(),
            e @ (E::Store(_) | E::Task(_)) => return ApiError::internal(e),
            e @ E::Document(D::Write(_)) => return ApiError::internal(e),
            other => other,
        };
        let (status, code) = match &error {
            E::Drive(_)
            | E::Board(_)
            | E::Session(_)
            | E::Store(_)
            | E::Task(_)
            | E::Document(D::Write(_)) => unreachable!("answered above"),
            E::NotFound(_) => (StatusCode::NOT_FOUND, "not_found"),
            E::SheetsOff => (StatusCode::FORBIDDEN, "sheets_disabled"),
            E::DocsOff => (StatusCode::FORBIDDEN, "docs_disabled"),
            E::Sheet(S::ColumnNotEditable { .. }) => (StatusCode::FORBIDDEN, "column_not_editable"),
            E::Sheet(S::Untrusted(_)) => (StatusCode::FORBIDDEN, "sheet_not_trusted"),
            E::Sheet(S::SheetNotFound(_)) => (StatusCode::NOT_FOUND, "not_found"),
            E::Invalid { .. } | E::Sheet(S::UnknownFormat(_) | S::Invalid(_)) => {
                (StatusCode::BAD_REQUEST, "invalid_request")
            }
            E::Sheet(S::Corrupt(_)) => (StatusCode::UNPROCESSABLE_ENTITY, "corrupt_spreadsheet"),
            E::Sheet(S::ReadOnlyFormat(_)) => {
                (StatusCode::UNPROCESSABLE_ENTITY, "read_only_format")
            }
            E::Document(D::BadTemplate(_)) => (StatusCode::UNPROCESSABLE_ENTITY, "bad_template"),
            E::Sheet(S::TooLarge { .. }) | E::Document(D::TooLarge { .. }) => {
                (StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large")
            }
        };
        let field = match &error {
            E::Invalid { field, .. } => Some(*field),
            _ => None,
        };
        ApiError::new(status, code, error.to_string()).on_field(field)
    }
}

impl From<push::PushError> for ApiError {
    fn from(error: push::PushError) -> Self {
        use push::PushError as E;
        match error {
            E::Invalid { field, .. } => {
                ApiError::bad_request("invalid_request", error.to_string()).on_field(Some(field))
            }
            E::NotFound => ApiError::not_found("not_found", error.to_string()),
            E::DamagedKey => {
                ApiError::new(StatusCode::CONFLICT, "vapid_key_damaged", error.to_string())
            }
            E::NoRandomness(_) | E::Encrypt(_) | E::Secrets(_) | E::Store(_) => {
                ApiError::internal(error)
            }
        }
    }
}

impl From<sms::SmsError> for ApiError {
    fn from(error: sms::SmsError) -> Self {
        match error {
            sms::SmsError::Invalid(_) => {
                ApiError::bad_request("invalid_request", error.to_string())
            }
            sms::SmsError::NotConfigured(_) | sms::SmsError::BadConfig { .. } => ApiError::new(
                StatusCode::CONFLICT,
                "sms_not_configured",
                error.to_string(),
            ),
            sms::SmsError::BadSignature => {
                ApiError::new(StatusCode::UNAUTHORIZED, "bad_signature", error.to_string())
            }
            sms::SmsError::NotFound => ApiError::not_found("not_found", error.to_string()),
            sms::SmsError::Store(_) => ApiError::internal(error),
        }
    }
}

impl From<matrix::MatrixError> for ApiError {
    fn from(error: matrix::MatrixError) -> Self {
        let conflict = |code: &'static str, error: &matrix::MatrixError| {
            ApiError::new(StatusCode::CONFLICT, code, error.to_string())
        };
        match error {
            matrix::MatrixError::Invalid(_) => {
                ApiError::bad_request("invalid_request", error.to_string())
            }
            matrix::MatrixError::NotFound => ApiError::not_found("not_found", error.to_string()),
            matrix::MatrixError::NotConfigured(_) | matrix::MatrixError::BadConfig { .. } => {
                conflict("messenger_not_configured", &error)
            }
            matrix::MatrixError::TokenRevoked | matrix::MatrixError::LoginRefused => {
                conflict("messenger_signed_out", &error)
            }
            matrix::MatrixError::RateLimited(_) => ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "rate_limited",
                error.to_string(),
            ),
            matrix::MatrixError::Unreachable(_) | matrix::MatrixError::Api { .. } => ApiError::new(
                StatusCode::BAD_GATEWAY,
                "homeserver_failed",
                error.to_string(),
            ),
            matrix::MatrixError::Store(_) => ApiError::internal(error),
        }
    }
}
