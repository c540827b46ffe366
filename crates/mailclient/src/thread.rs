//! Threading as a pure function: Jamie Zawinski's algorithm
//! (<https://www.jwz.org/doc/threading.html>) over Message-ID, References
//! and In-Reply-To, with his subject grouping of the root set as the only
//! fallback. Hostile headers cannot make it loop: a link that would close a
//! cycle is never made, and a duplicate Message-ID gets a container of its
//! own so no message is lost.

use std::collections::HashMap;

/// What threading needs of one message.
#[derive(Debug, Clone, Default)]
pub struct ThreadInput {
    /// Bare (no angle brackets), as [`mail::bare_id`] gives it.
    pub message_id: Option<String>,
    /// Oldest first, bare.
    pub references: Vec<String>,
    pub in_reply_to: Option<String>,
    pub subject: String,
}

#[derive(Debug, Default)]
struct Container {
    message: Option<usize>,
    parent: Option<usize>,
    children: Vec<usize>,
}

/// Groups `messages` into threads: each inner list holds indexes into
/// `messages`, in ascending order; the threads are ordered by their first
/// index.
pub fn thread(messages: &[ThreadInput]) -> Vec<Vec<usize>> {
    let mut arena: Vec<Container> = Vec::with_capacity(messages.len() * 2);
    let mut by_id: HashMap<String, usize> = HashMap::with_capacity(messages.len() * 2);
    let mut container_for = |id: &str, arena: &mut Vec<Container>| -> usize {
        *by_id.entry(id.to_owned()).or_insert_with(|| {
            arena.push(Container::default());
            arena.len() - 1
        })
    };
    for (index, message) in messages.iter().enumerate() {
        let own = match message.message_id.as_deref() {
            Some(id) => {
                let existing = container_for(id, &mut arena);
                if arena[existing].message.is_none() {
                    existing
                } else {
                    // A duplicate Message-ID: JWZ keeps both, the second unlinked by id.
                    arena.push(Container::default());
                    arena.len() - 1
                }
            }
            None => {
                arena.push(Container::default());
                arena.len() - 1
            }
        };
        arena[own].message = Some(index);
        let mut chain: Vec<&str> = message.references.iter().map(String::as_str).collect();
        if let Some(parent) = message.in_reply_to.as_deref()
            && chain.last() != Some(&parent)
        {
            chain.push(parent);
        }
        let mut previous: Option<usize> = None;
        for id in &chain {
            let current = container_for(id, &mut arena);
            if let Some(parent) = previous
                && arena[current].parent.is_none()
                && !would_loop(&arena, parent, current)
            {
                link(&mut arena, parent, current);
            }
            previous = Some(current);
        }
        // The message's own References are the most authoritative word on its parent.
        if let Some(old) = arena[own].parent {
            unlink(&mut arena, old, own);
        }
        if let Some(parent) = previous
            && !would_loop(&arena, parent, own)
        {
            link(&mut arena, parent, own);
        }
    }
    let roots: Vec<usize> = (0..arena.len())
        .filter(|&c| arena[c].parent.is_none())
        .collect();
    let mut groups: Vec<Vec<usize>> = roots
        .iter()
        .map(|&root| members(&arena, root))
        .filter(|members| !members.is_empty())
        .collect();
    groups = merge_by_subject(groups, messages);
    for group in &mut groups {
        group.sort_unstable();
    }
    groups.sort_unstable_by_key(|group| group[0]);
    groups
}

/// Whether making `child` a child of `parent` would close a cycle.
fn would_loop(arena: &[Container], parent: usize, child: usize) -> bool {
    let mut at = Some(parent);
    while let Some(c) = at {
        if c == child {
            return true;
        }
        at = arena[c].parent;
    }
    false
}

fn link(arena: &mut [Container], parent: usize, child: usize) {
    arena[child].parent = Some(parent);
    arena[parent].children.push(child);
}

fn unlink(arena: &mut [Container], parent: usize, child: usize) {
    arena[child].parent = None;
    arena[parent].children.retain(|&c| c != child);
}

/// The messages under `root`; empty containers (pruned by JWZ) add none.
fn members(arena: &[Container], root: usize) -> Vec<usize> {
    let mut found = Vec::new();
    let mut stack = vec![root];
    while let Some(c) = stack.pop() {
        found.extend(arena[c].message);
        stack.extend(&arena[c].children);
    }
    found
}

/// JWZ's step 5: root threads with the same base subject become one. His
/// rules for which root heads the joined tree (a dummy, or the one that is
/// not a reply) matter to a tree, not to the set of messages kept here.
fn merge_by_subject(groups: Vec<Vec<usize>>, messages: &[ThreadInput]) -> Vec<Vec<usize>> {
    let mut merged: Vec<Vec<usize>> = Vec::with_capacity(groups.len());
    let mut by_subject: HashMap<String, usize> = HashMap::new();
    for group in groups {
        let Some(&first) = group.iter().min() else {
            continue;
        };
        let base = base_subject(&messages[first].subject);
        if base.is_empty() {
            merged.push(group);
            continue;
        }
        match by_subject.get(&base) {
            Some(&at) => merged[at].extend(group),
            None => {
                by_subject.insert(base, merged.len());
                merged.push(group);
            }
        }
    }
    merged
}

/// The subject without `Re:`/`Fwd:`-style prefixes and list tags, lower
/// case.
pub fn base_subject(subject: &str) -> String {
    let mut rest = subject.trim();
    loop {
        let before = rest;
        if rest.starts_with('[')
            && let Some(end) = rest.find(']')
        {
            rest = rest[end + 1..].trim_start();
        }
        let lower = rest.to_ascii_lowercase();
        for prefix in ["re:", "fwd:", "fw:", "aw:", "sv:", "antw:"] {
            if lower.starts_with(prefix) {
                rest = rest[prefix.len()..].trim_start();
                break;
            }
        }
        if rest == before {
            break;
        }
    }
    rest.to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(
        id: Option<&str>,
        references: &[&str],
        reply_to: Option<&str>,
        subject: &str,
    ) -> ThreadInput {
        ThreadInput {
            message_id: id.map(str::to_owned),
            references: references.iter().map(|r| (*r).to_owned()).collect(),
            in_reply_to: reply_to.map(str::to_owned),
            subject: subject.to_owned(),
        }
    }

    #[test]
    fn threads_as_jwz_describes() {
        type Case = (&'static str, Vec<ThreadInput>, Vec<Vec<usize>>);
        let cases: Vec<Case> = vec![
            (
                "a thread of three, out of order, and a stranger",
                vec![
                    message(Some("c"), &["a", "b"], Some("b"), "Re: plan"),
                    message(Some("a"), &[], None, "plan"),
                    message(Some("x"), &[], None, "buy now"),
                    message(Some("b"), &["a"], Some("a"), "Re: plan"),
                ],
                vec![vec![0, 1, 3], vec![2]],
            ),
            (
                "a missing parent still joins its siblings",
                vec![
                    message(Some("a"), &[], None, "trip"),
                    message(Some("c"), &["a", "b"], None, "about the trip"),
                    message(Some("d"), &["b"], None, "other words"),
                ],
                vec![vec![0, 1, 2]],
            ),
            (
                "In-Reply-To alone links a reply",
                vec![
                    message(Some("a"), &[], None, "one"),
                    message(Some("b"), &[], Some("a"), "two"),
                ],
                vec![vec![0, 1]],
            ),
            (
                "a cycle in hostile References neither loops nor loses mail",
                vec![
                    message(Some("a"), &["b"], None, "first"),
                    message(Some("b"), &["a"], None, "second"),
                    message(Some("c"), &["b", "a", "c", "a"], Some("a"), "third"),
                    message(Some("d"), &["d"], Some("d"), "fourth"),
                ],
                vec![vec![0, 1, 2], vec![3]],
            ),
            (
                "duplicate Message-IDs keep both messages",
                vec![
                    message(Some("a"), &[], None, "hello"),
                    message(Some("a"), &[], None, "a different hello"),
                    message(Some("b"), &["a"], None, "Re: hello"),
                ],
                vec![vec![0, 2], vec![1]],
            ),
            (
                "subject fallback joins roots with the same base subject only",
                vec![
                    message(Some("a"), &[], None, "Lunch"),
                    message(Some("b"), &[], None, "Re: [team] lunch"),
                    message(None, &[], None, "Dinner"),
                    message(None, &[], None, ""),
                    message(None, &[], None, ""),
                ],
                vec![vec![0, 1], vec![2], vec![3], vec![4]],
            ),
        ];
        for (name, messages, want) in cases {
            assert_eq!(thread(&messages), want, "{name}");
        }
    }

    #[test]
    fn base_subject_strips_prefixes_and_tags() {
        assert_eq!(base_subject("Re: RE: Fwd: [list] Re: Hi"), "hi");
        assert_eq!(base_subject("Resume"), "resume");
    }
}
