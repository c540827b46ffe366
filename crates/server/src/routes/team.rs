//! Team time and meeting rooms (issue 71). `/team/people`: the people the
//! user works with, the workspace's members always among them, each with a
//! zone and working hours; every such route answers 403 `team_time_disabled`
//! while `teamTimeEnabled` is off (the rows stay). `/meeting-rooms`: the
//! saved video rooms, served whatever `meetingRoomsEnabled` says, since that
//! switch hides the web app's pages and promises the rooms are kept.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, patch};
use axum::{Json, Router};
use serde::Serialize;
use team::{Member, Person, PersonFields, Room, RoomFields};
use utoipa::ToSchema;

use crate::auth::User;
use crate::blocking::blocking;
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/team/people", get(people).post(add_person))
        .route(
            "/team/people/{id}",
            patch(update_person).delete(remove_person),
        )
        .route("/meeting-rooms", get(rooms).post(add_room))
        .route(
            "/meeting-rooms/{id}",
            patch(update_room).delete(remove_room),
        )
}

fn team_time_on(state: &AppState) -> ApiResult<()> {
    if state.settings.team_time_enabled() {
        return Ok(());
    }
    Err(ApiError::forbidden(
        "team_time_disabled",
        "Team time is turned off (setting teamTimeEnabled).",
    ))
}

#[derive(Serialize, ToSchema)]
struct TeamPeople {
    people: Vec<Person>,
}

#[derive(Serialize, ToSchema)]
struct MeetingRooms {
    rooms: Vec<Room>,
}

/// The people the user works with, by name, each with a zone and working hours.
///
/// Every member of the workspace is listed (added at UTC, 09:00 to 17:00,
/// Monday to Friday, until their zone and hours are set), then the user's
/// own list. 403 `team_time_disabled` while `teamTimeEnabled` is off.
#[utoipa::path(get, path = "/team/people", responses((status = 200, body = TeamPeople), (status = 403, description = "`team_time_disabled`")))]
async fn people(user: User, State(state): State<AppState>) -> ApiResult<Json<TeamPeople>> {
    team_time_on(&state)?;
    let members: Vec<Member> = {
        let accounts = state.accounts.clone();
        blocking(move || accounts.list()).await?
    }
    .into_iter()
    .map(|a| Member {
        account_id: a.id,
        name: a.name,
    })
    .collect();
    let (store, account) = (state.team.clone(), user.account_id().to_owned());
    let people = blocking(move || store.list(&account, &members)).await?;
    Ok(Json(TeamPeople { people }))
}

/// Adds someone to the user's own list.
///
/// `{"name", "zone"?, "startMinute"?, "endMinute"?, "workdays"?}`: an IANA
/// zone (UTC when absent), working hours in minutes of their local day
/// (09:00 to 17:00 when absent, never over midnight), ISO weekdays.
#[utoipa::path(post, path = "/team/people", request_body = PersonFields,
    responses((status = 201, body = Person), (status = 403, description = "`team_time_disabled`")))]
async fn add_person(
    user: User,
    State(state): State<AppState>,
    ApiJson(fields): ApiJson<PersonFields>,
) -> ApiResult<(StatusCode, Json<Person>)> {
    team_time_on(&state)?;
    let (store, account) = (state.team.clone(), user.account_id().to_owned());
    let person = blocking(move || store.create(&account, fields)).await?;
    Ok((StatusCode::CREATED, Json(person)))
}

/// Changes someone's zone, hours, workdays or (not a member's) name.
#[utoipa::path(patch, path = "/team/people/{id}", params(("id" = String, Path, description = "The person's id.")),
    request_body = PersonFields, responses((status = 200, body = Person), (status = 403, description = "`team_time_disabled`")))]
async fn update_person(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(fields): ApiJson<PersonFields>,
) -> ApiResult<Json<Person>> {
    team_time_on(&state)?;
    let (store, account) = (state.team.clone(), user.account_id().to_owned());
    Ok(Json(
        blocking(move || store.update(&account, &id, fields)).await?,
    ))
}

/// Removes someone from the user's own list.
///
/// A workspace member cannot be removed: 400 `workspace_member`.
#[utoipa::path(delete, path = "/team/people/{id}", params(("id" = String, Path, description = "The person's id.")),
    responses((status = 204, description = "Removed."), (status = 403, description = "`team_time_disabled`")))]
async fn remove_person(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    team_time_on(&state)?;
    let (store, account) = (state.team.clone(), user.account_id().to_owned());
    blocking(move || store.delete(&account, &id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The user's saved meeting rooms, by name.
///
/// Served whatever `meetingRoomsEnabled` says: the switch hides the pages
/// and keeps the rooms.
#[utoipa::path(get, path = "/meeting-rooms", responses((status = 200, body = MeetingRooms)))]
async fn rooms(user: User, State(state): State<AppState>) -> ApiResult<Json<MeetingRooms>> {
    let (store, account) = (state.meeting_rooms.clone(), user.account_id().to_owned());
    let rooms = blocking(move || store.list(&account)).await?;
    Ok(Json(MeetingRooms { rooms }))
}

/// Saves a meeting room: a name and a link, or a new Jitsi room.
///
/// `{"name", "url"}` (any http(s) link: Jitsi, Meet, Zoom or another) or
/// `{"name", "jitsi": true}`, which makes `https://meet.jit.si/<random>`.
#[utoipa::path(post, path = "/meeting-rooms", request_body = RoomFields, responses((status = 201, body = Room)))]
async fn add_room(
    user: User,
    State(state): State<AppState>,
    ApiJson(fields): ApiJson<RoomFields>,
) -> ApiResult<(StatusCode, Json<Room>)> {
    let (store, account) = (state.meeting_rooms.clone(), user.account_id().to_owned());
    let room = blocking(move || store.create(&account, fields)).await?;
    Ok((StatusCode::CREATED, Json(room)))
}

/// Renames a meeting room or gives it another link.
#[utoipa::path(patch, path = "/meeting-rooms/{id}", params(("id" = String, Path, description = "The room's id.")),
    request_body = RoomFields, responses((status = 200, body = Room)))]
async fn update_room(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(fields): ApiJson<RoomFields>,
) -> ApiResult<Json<Room>> {
    let (store, account) = (state.meeting_rooms.clone(), user.account_id().to_owned());
    Ok(Json(
        blocking(move || store.update(&account, &id, fields)).await?,
    ))
}

/// Deletes a meeting room.
#[utoipa::path(delete, path = "/meeting-rooms/{id}", params(("id" = String, Path, description = "The room's id.")),
    responses((status = 204, description = "Deleted.")))]
async fn remove_room(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let (store, account) = (state.meeting_rooms.clone(), user.account_id().to_owned());
    blocking(move || store.delete(&account, &id)).await?;
    Ok(StatusCode::NO_CONTENT)
}
