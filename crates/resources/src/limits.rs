//! The resource settings as plain values, and what each writes where.

/// A session's process ceiling under `sessionMaxProcessesEnabled`: room
/// for a build's compilers and test runners, not for a fork bomb.
pub const MAX_PROCESSES: u32 = 512;

/// The CPU weight of all engines together against the server's: a
/// nice-0 thread of the server weighs 1024 (v1) or 100 (v2).
pub(crate) const ENGINES_SHARES_V1: u32 = 128;
pub(crate) const ENGINES_WEIGHT_V2: u32 = 10;
/// One session tree's CPU weight among the others (the kernel's default
/// for a new group); `Trees::boost` moves it.
pub(crate) const TREE_SHARES_V1: u32 = 1024;
pub(crate) const TREE_WEIGHT_V2: u32 = 100;
/// The scheduler period the CPU cap's quota is a share of.
pub(crate) const CPU_PERIOD_US: u64 = 100_000;
/// An idle-class I/O weight for session trees.
pub(crate) const LOW_IO_WEIGHT: u32 = 10;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CpuCap {
    /// Of the whole machine, 1 to 100.
    pub percent: u32,
    /// A ceiling even when nothing else runs; else only while the machine
    /// is contended.
    pub strict: bool,
}

/// What the settings ask of all session trees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Limits {
    pub cpu_cap: Option<CpuCap>,
    pub max_processes: bool,
    pub low_io: bool,
    /// One core kept free of engines (on four or more).
    pub reserve_core: bool,
    /// Whether the machine is contended now (the caller measures it): a
    /// cap that is not strict applies only then.
    pub contended: bool,
    /// Memory is short (`sessionAdaptiveMemoryPaging`, decided by the
    /// caller): each busy tree is held to what it uses now, so the kernel
    /// reclaims from the engines first.
    pub page_busy: bool,
}

impl Limits {
    /// The quota all engines together get each period, if capped now.
    pub fn quota_us(&self, cpus: u32) -> Option<u64> {
        let cap = self.cpu_cap?;
        (cap.strict || self.contended).then(|| {
            let percent = u64::from(cap.percent.clamp(1, 100));
            (CPU_PERIOD_US * u64::from(cpus.max(1)) * percent / 100).max(1000)
        })
    }

    /// These limits as they act: `contended` kept only under a cap that
    /// waits for it. Each swing of a busy machine then compares equal
    /// unless it changes a quota, and is not written again to every tree
    /// (a `cpu.max` write costs the kernel milliseconds).
    pub fn in_force(self) -> Limits {
        Limits {
            contended: self.contended && self.cpu_cap.is_some_and(|cap| !cap.strict),
            ..self
        }
    }

    /// The CPUs engines may use: all but the first on four or more when a
    /// core is reserved; `None` leaves them all.
    pub fn cpus(&self, cpus: u32) -> Option<String> {
        (self.reserve_core && cpus >= 4).then(|| format!("1-{}", cpus - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cap_is_a_share_of_every_core_and_waits_for_contention_unless_strict() {
        let loose = Limits {
            cpu_cap: Some(CpuCap {
                percent: 25,
                strict: false,
            }),
            ..Limits::default()
        };
        assert_eq!(loose.quota_us(2), None);
        assert_eq!(
            Limits {
                contended: true,
                ..loose
            }
            .quota_us(2),
            Some(50_000)
        );
        let strict = Limits {
            cpu_cap: Some(CpuCap {
                percent: 25,
                strict: true,
            }),
            ..Limits::default()
        };
        assert_eq!(strict.quota_us(8), Some(200_000));
        assert_eq!(Limits::default().quota_us(2), None);
    }

    #[test]
    fn contention_counts_only_under_a_cap_that_waits_for_it() {
        let contended = |cpu_cap| {
            Limits {
                cpu_cap,
                contended: true,
                ..Limits::default()
            }
            .in_force()
        };
        assert_eq!(contended(None), Limits::default());
        let strict = Some(CpuCap {
            percent: 50,
            strict: true,
        });
        assert_eq!(
            contended(strict),
            Limits {
                cpu_cap: strict,
                ..Limits::default()
            }
        );
        let loose = Some(CpuCap {
            percent: 50,
            strict: false,
        });
        assert!(contended(loose).contended);
        assert_eq!(contended(loose).quota_us(2), Some(100_000));
    }

    #[test]
    fn a_core_is_reserved_only_on_four_or_more() {
        let reserve = Limits {
            reserve_core: true,
            ..Limits::default()
        };
        assert_eq!(reserve.cpus(2), None);
        assert_eq!(reserve.cpus(8).as_deref(), Some("1-7"));
        assert_eq!(Limits::default().cpus(8), None);
    }
}
