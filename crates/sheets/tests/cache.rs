//! The sheet file cache's bounds and revalidation: a hit only at the same
//! ETag (however it is quoted), a changed ETag drops the old copy, and the
//! file count and byte budget evict the least recently used file.

use std::sync::Arc;

use sheets::cache::FileCache;

fn bytes(n: usize, fill: u8) -> Arc<Vec<u8>> {
    Arc::new(vec![fill; n])
}

#[test]
fn a_file_is_served_again_only_at_the_etag_it_was_read_at() {
    let cache = FileCache::new(4, 1024);
    cache.put("main", "/plan.xlsx", "\"abc-1\"", bytes(10, 1));
    assert_eq!(
        cache.get("main", "/plan.xlsx", "W/\"abc-1\"").as_deref(),
        Some(&vec![1u8; 10])
    );
    assert!(cache.get("other", "/plan.xlsx", "abc-1").is_none());
    assert!(cache.get("main", "/plan.xlsx", "abc-2").is_none());
    // The stale copy was dropped: not even the old ETag finds it now.
    assert!(cache.get("main", "/plan.xlsx", "abc-1").is_none());
}

#[test]
fn the_least_recently_used_file_goes_past_the_count_or_the_byte_budget() {
    let cache = FileCache::new(2, 100);
    cache.put("main", "/a.csv", "a", bytes(10, 1));
    cache.put("main", "/b.csv", "b", bytes(10, 2));
    assert!(cache.get("main", "/a.csv", "a").is_some());
    cache.put("main", "/c.csv", "c", bytes(10, 3));
    assert!(
        cache.get("main", "/b.csv", "b").is_none(),
        "b was least recent"
    );
    assert!(cache.get("main", "/a.csv", "a").is_some());
    assert!(cache.get("main", "/c.csv", "c").is_some());

    cache.put("main", "/big.csv", "big", bytes(95, 4));
    assert!(cache.get("main", "/big.csv", "big").is_some());
    assert!(cache.get("main", "/a.csv", "a").is_none());
    assert!(cache.get("main", "/c.csv", "c").is_none());

    cache.put("main", "/huge.csv", "huge", bytes(101, 5));
    assert!(
        cache.get("main", "/huge.csv", "huge").is_none(),
        "over the budget"
    );
    cache.forget("main", "/big.csv");
    assert!(cache.get("main", "/big.csv", "big").is_none());
}
