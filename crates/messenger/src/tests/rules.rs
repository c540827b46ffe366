//! [`crate::route`] on updates written as the Bot API's JSON.

use serde_json::{Value, json};

use crate::{
    ChatKey, Command, Decision, DmPolicy, Ignored, Incoming, Input, Me, Policy, Routed, Update,
    route,
};

const BOT: i64 = 42;
const OWNER: i64 = 1001;
const STRANGER: i64 = 2002;
const GROUP: i64 = -1_001_234;

fn me() -> Me {
    Me {
        id: BOT,
        username: "SwitchBot".to_owned(),
    }
}

fn policy(dm: DmPolicy, require_mention: bool) -> Policy {
    Policy::new(
        dm,
        &[OWNER.to_string(), "not a number".to_owned()],
        &[GROUP.to_string()],
        require_mention,
    )
}

fn user(id: i64) -> Value {
    json!({"id": id, "is_bot": false, "first_name": "Ada", "username": format!("u{id}")})
}

/// A text message from `from` in `chat` (a direct chat when the id is positive).
fn message(chat: i64, from: i64, text: &str) -> Value {
    let kind = if chat > 0 { "private" } else { "supergroup" };
    json!({
        "message_id": 7,
        "date": 1_700_000_000,
        "from": user(from),
        "chat": {"id": chat, "type": kind},
        "text": text,
    })
}

/// `message` with the Bot API's entity for each `(type, piece)` found in the text.
fn with_entities(mut message: Value, entities: &[(&str, &str)]) -> Value {
    let text = message["text"].as_str().unwrap().to_owned();
    let list: Vec<Value> = entities
        .iter()
        .map(|(kind, piece)| {
            let at = text.find(piece).unwrap();
            json!({
                "type": kind,
                "offset": text[..at].encode_utf16().count(),
                "length": piece.encode_utf16().count(),
            })
        })
        .collect();
    message["entities"] = json!(list);
    message
}

fn routed(message: Value, policy: &Policy) -> Routed {
    let update: Update =
        serde_json::from_value(json!({"update_id": 1, "message": message})).unwrap();
    route(&update, policy, &me())
}

fn input(routed: Routed) -> (ChatKey, Input) {
    match routed {
        Routed::Message(Incoming { key, input, .. }) => (key, input),
        other => panic!("not a message: {other:?}"),
    }
}

fn prompt(text: &str) -> Input {
    Input::Prompt(text.to_owned())
}

fn dm_key(id: i64) -> ChatKey {
    ChatKey {
        chat_id: id,
        thread_id: None,
    }
}

#[test]
fn pairing_gives_an_unknown_sender_a_code_and_lets_the_allowed_in() {
    let policy = policy(DmPolicy::Pairing, true);
    assert_eq!(
        input(routed(message(OWNER, OWNER, "hello"), &policy)),
        (dm_key(OWNER), prompt("hello"))
    );
    match routed(message(STRANGER, STRANGER, "hello"), &policy) {
        Routed::Pairing { chat_id, sender } => {
            assert_eq!((chat_id, sender.id), (STRANGER, STRANGER));
        }
        other => panic!("{other:?}"),
    }
    let start = with_entities(
        message(STRANGER, STRANGER, "/start"),
        &[("bot_command", "/start")],
    );
    assert!(matches!(routed(start, &policy), Routed::Pairing { .. }));
    let start = with_entities(
        message(OWNER, OWNER, "/start"),
        &[("bot_command", "/start")],
    );
    assert_eq!(
        input(routed(start, &policy)).1,
        Input::Command(Command::Start)
    );
}

#[test]
fn the_allowlist_and_disabled_policies_refuse() {
    let allowlist = policy(DmPolicy::Allowlist, true);
    assert!(matches!(
        routed(message(OWNER, OWNER, "hi"), &allowlist),
        Routed::Message(_)
    ));
    assert_eq!(
        routed(message(STRANGER, STRANGER, "hi"), &allowlist),
        Routed::Ignore(Ignored::UserNotAllowed)
    );
    let disabled = policy(DmPolicy::Disabled, true);
    assert_eq!(
        routed(message(OWNER, OWNER, "hi"), &disabled),
        Routed::Ignore(Ignored::DirectMessagesOff)
    );
}

#[test]
fn only_allowed_groups_are_answered() {
    let open = policy(DmPolicy::Pairing, false);
    assert_eq!(
        input(routed(message(GROUP, STRANGER, "status?"), &open)),
        (dm_key(GROUP), prompt("status?"))
    );
    assert_eq!(
        routed(message(-999, OWNER, "status?"), &open),
        Routed::Ignore(Ignored::GroupNotAllowed)
    );
    let no_groups = Policy::new(DmPolicy::Pairing, &[], &[], false);
    assert_eq!(
        routed(message(GROUP, OWNER, "status?"), &no_groups),
        Routed::Ignore(Ignored::GroupNotAllowed)
    );
}

#[test]
fn a_group_requiring_a_mention_answers_mentions_and_replies_only() {
    let policy = policy(DmPolicy::Pairing, true);
    assert_eq!(
        routed(message(GROUP, STRANGER, "deploy it"), &policy),
        Routed::Ignore(Ignored::NotAddressed)
    );
    let someone_else = with_entities(
        message(GROUP, STRANGER, "@alice deploy it"),
        &[("mention", "@alice")],
    );
    assert_eq!(
        routed(someone_else, &policy),
        Routed::Ignore(Ignored::NotAddressed)
    );
    // The username matches whatever its case; the mention leaves the prompt.
    let mention = with_entities(
        message(GROUP, STRANGER, "please @switchbot deploy it"),
        &[("mention", "@switchbot")],
    );
    assert_eq!(
        input(routed(mention, &policy)).1,
        prompt("please deploy it")
    );

    let mut by_name = message(GROUP, STRANGER, "Switch Bot: deploy it");
    by_name["entities"] = json!([{"type": "text_mention", "offset": 0, "length": 10, "user": {"id": BOT, "is_bot": true, "first_name": "Switch"}}]);
    assert_eq!(input(routed(by_name, &policy)).1, prompt(": deploy it"));

    let mut reply = message(GROUP, STRANGER, "and the tests too");
    reply["reply_to_message"] = message(GROUP, BOT, "Deployed.");
    reply["reply_to_message"]["from"]["is_bot"] = json!(true);
    assert_eq!(
        input(routed(reply.clone(), &policy)).1,
        prompt("and the tests too")
    );
    reply["reply_to_message"]["from"] = user(OWNER);
    assert_eq!(
        routed(reply, &policy),
        Routed::Ignore(Ignored::NotAddressed)
    );

    let alone = with_entities(
        message(GROUP, STRANGER, "@SwitchBot"),
        &[("mention", "@SwitchBot")],
    );
    assert_eq!(routed(alone, &policy), Routed::Ignore(Ignored::EmptyPrompt));
}

#[test]
fn entity_offsets_are_utf16_units() {
    let policy = policy(DmPolicy::Pairing, true);
    // The emoji is two UTF-16 units: a byte or char offset would miss the mention.
    let text = "😀🚀 @SwitchBot ship it";
    let mention = with_entities(message(GROUP, STRANGER, text), &[("mention", "@SwitchBot")]);
    assert_eq!(mention["entities"][0]["offset"], 5);
    assert_eq!(input(routed(mention, &policy)).1, prompt("😀🚀 ship it"));
    // An entity whose offset falls inside a surrogate pair is not trusted.
    let mut broken = message(GROUP, STRANGER, text);
    broken["entities"] = json!([{"type": "mention", "offset": 1, "length": 10}]);
    assert_eq!(
        routed(broken, &policy),
        Routed::Ignore(Ignored::NotAddressed)
    );
}

#[test]
fn each_forum_topic_is_its_own_chat() {
    let policy = policy(DmPolicy::Pairing, false);
    let in_topic = |thread: i64| {
        let mut m = message(GROUP, STRANGER, "hi");
        m["message_thread_id"] = json!(thread);
        m["is_topic_message"] = json!(true);
        input(routed(m, &policy)).0
    };
    let general = input(routed(message(GROUP, STRANGER, "hi"), &policy)).0;
    assert_eq!(general, dm_key(GROUP));
    assert_eq!(
        in_topic(11),
        ChatKey {
            chat_id: GROUP,
            thread_id: Some(11)
        }
    );
    assert_ne!(in_topic(11), in_topic(12));
    // Outside a forum a thread of replies is the same conversation.
    let mut reply_thread = message(GROUP, STRANGER, "hi");
    reply_thread["message_thread_id"] = json!(5);
    assert_eq!(input(routed(reply_thread, &policy)).0, general);
}

#[test]
fn a_topic_the_bot_opened_does_not_make_every_message_a_reply_to_it() {
    let policy = policy(DmPolicy::Pairing, true);
    let mut m = message(GROUP, STRANGER, "chatting among ourselves");
    m["message_thread_id"] = json!(30);
    m["is_topic_message"] = json!(true);
    m["reply_to_message"] = message(GROUP, BOT, "");
    m["reply_to_message"]["message_id"] = json!(30);
    assert_eq!(
        routed(m.clone(), &policy),
        Routed::Ignore(Ignored::NotAddressed)
    );
    m["reply_to_message"]["message_id"] = json!(31);
    assert!(matches!(routed(m, &policy), Routed::Message(_)));
}

#[test]
fn commands_with_and_without_the_bots_name() {
    let require = policy(DmPolicy::Pairing, true);
    let command = |chat: i64, text: &str, policy: &Policy| {
        let piece = text.split(' ').next().unwrap().to_owned();
        routed(
            with_entities(message(chat, OWNER, text), &[("bot_command", &piece)]),
            policy,
        )
    };
    assert_eq!(
        input(command(GROUP, "/stop@switchbot", &require)).1,
        Input::Command(Command::Stop)
    );
    assert_eq!(
        command(GROUP, "/stop", &require),
        Routed::Ignore(Ignored::NotAddressed)
    );
    assert_eq!(
        command(GROUP, "/stop@OtherBot", &require),
        Routed::Ignore(Ignored::ForAnotherBot)
    );
    for (text, expected) in [
        ("/new", Command::New),
        ("/stop", Command::Stop),
        ("/status", Command::Status),
        ("/sessions now", Command::Sessions),
        ("/Status@SwitchBot", Command::Status),
    ] {
        assert_eq!(
            input(command(OWNER, text, &require)).1,
            Input::Command(expected),
            "{text}"
        );
    }
    // Anything else goes to the agent, addressed or not.
    assert_eq!(
        input(command(OWNER, "/compact keep the plan", &require)).1,
        prompt("/compact keep the plan")
    );
    assert_eq!(
        input(command(GROUP, "/compact@SwitchBot keep the plan", &require)).1,
        prompt("/compact keep the plan")
    );
    let open = policy(DmPolicy::Pairing, false);
    assert_eq!(
        input(command(GROUP, "/new", &open)).1,
        Input::Command(Command::New)
    );
    // A command entity later in the text is just text.
    let late = with_entities(
        message(OWNER, OWNER, "try /new"),
        &[("bot_command", "/new")],
    );
    assert_eq!(input(routed(late, &open)).1, prompt("try /new"));
}

#[test]
fn bots_channels_and_media_are_ignored() {
    let policy = policy(DmPolicy::Pairing, false);
    let mut bot = message(GROUP, 77, "beep");
    bot["from"]["is_bot"] = json!(true);
    assert_eq!(routed(bot, &policy), Routed::Ignore(Ignored::FromABot));
    let mut channel = message(GROUP, OWNER, "post");
    channel["chat"]["type"] = json!("channel");
    assert_eq!(
        routed(channel, &policy),
        Routed::Ignore(Ignored::UnsupportedChat)
    );
    let mut photo = message(OWNER, OWNER, "");
    photo.as_object_mut().unwrap().remove("text");
    photo["photo"] = json!([{"file_id": "x", "file_unique_id": "y", "width": 1, "height": 1}]);
    assert_eq!(routed(photo, &policy), Routed::Ignore(Ignored::NoText));
    let mut anonymous = message(GROUP, OWNER, "hi");
    anonymous.as_object_mut().unwrap().remove("from");
    assert_eq!(
        routed(anonymous, &policy),
        Routed::Ignore(Ignored::NoSender)
    );
    let edited: Update = serde_json::from_value(
        json!({"update_id": 3, "edited_message": message(OWNER, OWNER, "x")}),
    )
    .unwrap();
    assert_eq!(
        route(&edited, &policy, &me()),
        Routed::Ignore(Ignored::NotHandled)
    );
}

#[test]
fn only_an_allowed_user_can_press_an_approval_button() {
    let policy = policy(DmPolicy::Pairing, true);
    let press = |from: i64, data: &str| {
        let mut held = message(GROUP, BOT, "Allow `rm -rf build`?");
        held["message_id"] = json!(88);
        held["message_thread_id"] = json!(11);
        held["is_topic_message"] = json!(true);
        let update: Update = serde_json::from_value(json!({
            "update_id": 2,
            "callback_query": {
                "id": "cb1", "from": user(from), "chat_instance": "ci",
                "data": data, "message": held,
            },
        }))
        .unwrap();
        route(&update, &policy, &me())
    };
    match press(OWNER, "a:0192f0c4a1b27c3d8e9f0a1b2c3d4e5f:deny") {
        Routed::Press(p) => {
            assert_eq!(p.callback_id, "cb1");
            assert_eq!(p.token, "0192f0c4a1b27c3d8e9f0a1b2c3d4e5f");
            assert_eq!(p.decision, Decision::Deny);
            assert_eq!(
                p.message,
                Some((
                    ChatKey {
                        chat_id: GROUP,
                        thread_id: Some(11)
                    },
                    88
                ))
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        press(STRANGER, "a:abc:allow"),
        Routed::RefusedPress {
            callback_id: "cb1".to_owned(),
            reason: Ignored::UserNotAllowed
        }
    );
    assert_eq!(
        press(OWNER, "something else"),
        Routed::RefusedPress {
            callback_id: "cb1".to_owned(),
            reason: Ignored::UnknownButton
        }
    );
}
