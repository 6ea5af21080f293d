//! Shards of a batch job (`--shard K/N`): shard K of N takes the K-th of N contiguous,
//! nearly equal parts of the work, so that the N outputs, in order, are the whole job's.

use std::ops::Range;

/// Shard `index` (from 1) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Default for Shard {
    fn default() -> Shard {
        Shard::WHOLE
    }
}

impl Shard {
    /// The whole job: shard 1 of 1.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    pub fn is_whole(self) -> bool {
        self.count == 1
    }

    /// The items of `total` this shard takes: `[total*(K-1)/N, total*K/N)`.
    pub fn range(self, total: usize) -> Range<usize> {
        let at = |k: usize| (total as u128 * k as u128 / self.count as u128) as usize;
        at(self.index - 1)..at(self.index)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("'{s}' is not K/N with 1 <= K <= N (e.g. 3/8)");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let k: usize = k.trim().parse().map_err(|_| bad())?;
        let n: usize = n.trim().parse().map_err(|_| bad())?;
        if n == 0 || k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { index: k, count: n })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_work_into_contiguous_parts() {
        for total in [0, 1, 7, 100, 1001] {
            for n in 1..=9 {
                let mut next = 0;
                for k in 1..=n {
                    let r = Shard { index: k, count: n }.range(total);
                    assert_eq!(r.start, next);
                    assert!(r.len() <= total / n + 1);
                    next = r.end;
                }
                assert_eq!(next, total);
            }
        }
        assert_eq!("3/8".parse::<Shard>(), Ok(Shard { index: 3, count: 8 }));
        for bad in ["0/4", "5/4", "1/0", "x/y", "3", "1/-2", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
