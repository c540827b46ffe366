//! The program's own code pages that start-up touched, given back once the
//! server is up.
//!
//! Start-up runs code that never runs again (every feature's migrations,
//! the settings catalog, the router's construction), and the kernel maps
//! the binary's code in 64 KiB windows around each page touched: 24 MiB of
//! the idle server's 34 MiB were such pages. Released, they leave the
//! process and, being clean file pages, the page cache; what the server
//! runs afterwards is read back as it runs.

use std::io;
use std::path::Path;

/// Asks the kernel to reclaim the pages of this program's read-only
/// mappings (code, constants); returns the bytes of the mappings asked
/// about. Nothing is lost: a page needed again is read from the binary.
pub fn release_startup_pages() -> io::Result<usize> {
    let exe = std::fs::read_link("/proc/self/exe")?;
    let maps = std::fs::read_to_string("/proc/self/maps")?;
    let mut asked = 0;
    for (start, end) in read_only_mappings_of(&maps, &exe) {
        // SAFETY: the range is a whole mapping of this process, read-only
        // and backed by the binary; MADV_PAGEOUT only reclaims pages, which
        // the next access faults back in unchanged.
        let done =
            unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_PAGEOUT) };
        if done != 0 {
            return Err(io::Error::last_os_error());
        }
        asked += end - start;
    }
    Ok(asked)
}

/// The address ranges of `maps` (the text of `/proc/self/maps`) that map
/// `exe` without write access.
fn read_only_mappings_of(maps: &str, exe: &Path) -> Vec<(usize, usize)> {
    maps.lines()
        .filter_map(|line| {
            let mut fields = line.split_whitespace();
            let range = fields.next()?;
            let perms = fields.next()?;
            // Offset, device and inode, then the path (which may hold spaces).
            let path = fields.nth(3)?;
            let rest: Vec<&str> = fields.collect();
            let path = if rest.is_empty() {
                path.to_owned()
            } else {
                format!("{path} {}", rest.join(" "))
            };
            if !perms.starts_with('r') || perms.as_bytes().get(1) != Some(&b'-') {
                return None;
            }
            if Path::new(&path) != exe {
                return None;
            }
            let (start, end) = range.split_once('-')?;
            Some((
                usize::from_str_radix(start, 16).ok()?,
                usize::from_str_radix(end, 16).ok()?,
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAPS: &str = "\
55d0a0000000-55d0a0e07000 r--p 00000000 fe:00 6246006                    /opt/switch board/bin/switchboard
55d0a0e07000-55d0a3114000 r-xp 00e07000 fe:00 6246006                    /opt/switch board/bin/switchboard
55d0a331e000-55d0a3328000 rw-p 0331e000 fe:00 6246006                    /opt/switch board/bin/switchboard
55d0a3328000-55d0a3400000 rw-p 00000000 00:00 0                          [heap]
7f0000000000-7f0000200000 r-xp 00000000 fe:00 17                         /usr/lib/x86_64-linux-gnu/libc.so.6
";

    #[test]
    fn only_the_programs_read_only_mappings_are_released() {
        let exe = Path::new("/opt/switch board/bin/switchboard");
        assert_eq!(
            read_only_mappings_of(MAPS, exe),
            vec![
                (0x55d0a0000000, 0x55d0a0e07000),
                (0x55d0a0e07000, 0x55d0a3114000)
            ]
        );
        assert!(read_only_mappings_of(MAPS, Path::new("/usr/bin/other")).is_empty());
    }

    #[test]
    fn the_released_pages_leave_this_process() {
        let file_pages = || {
            let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
            status
                .lines()
                .find_map(|line| line.strip_prefix("RssFile:"))
                .and_then(|kib| kib.trim().trim_end_matches(" kB").parse::<u64>().ok())
        };
        let Some(before) = file_pages() else {
            return;
        };
        let asked = release_startup_pages().unwrap();
        assert!(asked > 0);
        let after = file_pages().unwrap();
        assert!(after < before, "{before} kB then {after} kB");
    }
}
