//! What a session's tree used, from its cgroup's own counters.

use serde::Serialize;

/// A session's resource use (`GET /sessions/{id}`'s `resources`).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, ts_rs::TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "SessionResources")]
#[schema(as = SessionResources)]
pub struct Usage {
    pub cpu_seconds: f64,
    pub peak_memory_mb: u64,
    pub processes: u32,
    pub read_bytes: u64,
    pub written_bytes: u64,
}

/// The first number of a one-number file (`cpuacct.usage`, `pids.current`).
pub(crate) fn number(text: &str) -> Option<u64> {
    text.split_whitespace().next()?.parse().ok()
}

/// `key value` lines (`cpu.stat`): the value of `key`.
pub(crate) fn keyed(text: &str, key: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let (k, v) = line.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok())?
    })
}

/// v1's `blkio.throttle.io_service_bytes_recursive`: bytes read and written
/// summed over devices (`8:0 Read 4096`).
pub(crate) fn v1_io(text: &str) -> (u64, u64) {
    let (mut read, mut written) = (0, 0);
    for line in text.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if let [_, op, bytes] = fields[..]
            && let Ok(bytes) = bytes.parse::<u64>()
        {
            match op {
                "Read" => read += bytes,
                "Write" => written += bytes,
                _ => {}
            }
        }
    }
    (read, written)
}

/// v2's `io.stat`: `8:0 rbytes=4096 wbytes=0 …` summed over devices.
pub(crate) fn v2_io(text: &str) -> (u64, u64) {
    let (mut read, mut written) = (0, 0);
    for field in text.split_whitespace() {
        if let Some(v) = field
            .strip_prefix("rbytes=")
            .and_then(|v| v.parse::<u64>().ok())
        {
            read += v;
        } else if let Some(v) = field
            .strip_prefix("wbytes=")
            .and_then(|v| v.parse::<u64>().ok())
        {
            written += v;
        }
    }
    (read, written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_counters_are_read_as_the_kernel_writes_them() {
        assert_eq!(number("123456789\n"), Some(123_456_789));
        assert_eq!(
            keyed("usage_usec 2500000\nuser_usec 2000000\n", "usage_usec"),
            Some(2_500_000)
        );
        let v1 = "8:0 Read 4096\n8:0 Write 512\n8:0 Total 4608\n8:16 Read 100\nTotal 4708\n";
        assert_eq!(v1_io(v1), (4196, 512));
        let v2 = "8:0 rbytes=4096 wbytes=512 rios=1 wios=1\n8:16 rbytes=100 wbytes=0\n";
        assert_eq!(v2_io(v2), (4196, 512));
    }
}
