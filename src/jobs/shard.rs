//! Shards of a batch job (`--shard K/N`): shard K of N takes the K-th of N contiguous,
//! nearly equal parts of the work, so that the N outputs, in order, are the whole job's.

use anyhow::{Context, Result};
use std::ops::Range;
use std::path::{Path, PathBuf};

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

    /// ` --shard K/N` as a run's record ends with it; nothing for the whole job.
    pub fn suffix(self) -> String {
        if self.is_whole() {
            String::new()
        } else {
            format!(" --shard {self}")
        }
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

/// The file beside a line output that records what wrote it: `FILE.run`.
pub fn run_file(output: &Path) -> PathBuf {
    let mut name = output.as_os_str().to_owned();
    name.push(".run");
    name.into()
}

/// Records in `FILE.run` that the run writing `output` finished with `records` records, so
/// that a merge of shards can tell a finished shard from one still running or killed.
pub fn mark_complete(output: &Path, records: usize) -> Result<()> {
    let run = run_file(output);
    let text = std::fs::read_to_string(&run).unwrap_or_default();
    let description = text.lines().next().unwrap_or("");
    std::fs::write(&run, format!("{description}\ncomplete {records}\n"))
        .with_context(|| format!("cannot write {}", run.display()))
}

/// A text output of one record a line, opened to go on where a killed run stopped.
pub struct LineOutput {
    pub file: std::fs::File,
    /// The whole lines already there.
    pub lines: Vec<String>,
    /// Bytes of a torn last line that were cut off.
    pub cut_bytes: usize,
}

/// Opens `output` to append records, one a line, for the run `description` says. A new
/// file gets `FILE.run` holding the description; an existing one must have been written
/// by the same run (same description) or it is refused, untouched; a last line without
/// its newline (a killed run's) is cut off.
pub fn open_line_output(output: &Path, description: &str) -> Result<LineOutput> {
    let run = run_file(output);
    let text = match std::fs::read(output) {
        Ok(bytes) => String::from_utf8(bytes)
            .map_err(|_| anyhow::anyhow!("{} is not a text file", output.display()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", output.display())),
    };
    match std::fs::read_to_string(&run) {
        Ok(recorded) if recorded.lines().next().unwrap_or("") != description => anyhow::bail!(
            "{} holds the output of `{}` ({}), not of `{description}`: not appended to \
             (give another output file)",
            output.display(),
            recorded.lines().next().unwrap_or(""),
            run.display(),
        ),
        Ok(_) => {}
        Err(_) if text.is_empty() => {
            std::fs::write(&run, format!("{description}\n"))
                .with_context(|| format!("cannot write {}", run.display()))?;
        }
        Err(_) => anyhow::bail!(
            "{} is not empty and has no record of what wrote it ({} is missing): not \
             appended to",
            output.display(),
            run.display()
        ),
    }
    let whole = text.rfind('\n').map_or(0, |i| i + 1);
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(false)
        .open(output)
        .with_context(|| format!("cannot write {}", output.display()))?;
    if whole < text.len() {
        file.set_len(whole as u64)
            .with_context(|| format!("cannot cut {}", output.display()))?;
    }
    std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(whole as u64))?;
    Ok(LineOutput {
        file,
        lines: text[..whole].lines().map(str::to_string).collect(),
        cut_bytes: text.len() - whole,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_outputs_resume_cut_torn_lines_and_refuse_other_runs() {
        let dir = std::env::temp_dir().join(format!("volte-lines-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.txt");
        let _ = std::fs::remove_file(&path);
        let _ = std::fs::remove_file(run_file(&path));
        let mut o = open_line_output(&path, "run a").unwrap();
        assert!(o.lines.is_empty());
        std::io::Write::write_all(&mut o.file, b"one\ntwo\nthr").unwrap();
        drop(o);
        let o = open_line_output(&path, "run a").unwrap();
        assert_eq!((o.lines.len(), o.cut_bytes), (2, 3));
        mark_complete(&path, 2).unwrap();
        assert_eq!(
            std::fs::read_to_string(run_file(&path)).unwrap(),
            "run a\ncomplete 2\n"
        );
        assert!(open_line_output(&path, "run a").is_ok());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "one\ntwo\n");
        drop(o);
        let e = open_line_output(&path, "run b").err().unwrap().to_string();
        assert!(e.contains("not appended to"), "{e}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "one\ntwo\n");
        std::fs::remove_file(run_file(&path)).unwrap();
        assert!(open_line_output(&path, "run a").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

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
