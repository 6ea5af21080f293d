//! Stopping a search: from outside (a GUI's `stop`), at a deadline on a clock, or after a
//! number of nodes. Search threads report their nodes every few thousand and check one
//! flag at every node.
//!
//! The clock is injectable: [`SystemClock`] reads the wall clock; [`ManualClock`] is a
//! deterministic clock for tests, which advances by a fixed time per node searched, so a
//! search's simulated time grows with the work it does.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Nodes a thread searches between two reports to the [`Control`].
pub const POLL_NODES: u64 = 1024;

/// A source of time: how long since some fixed origin.
pub trait Clock: Send + Sync {
    fn now(&self) -> Duration;
    /// Told of `nodes` more searched (a simulated clock advances with them).
    fn work(&self, _nodes: u64) {}
}

/// The wall clock (monotonic), from the moment it was made.
#[derive(Debug)]
pub struct SystemClock {
    origin: Instant,
}

impl Default for SystemClock {
    fn default() -> Self {
        SystemClock {
            origin: Instant::now(),
        }
    }
}

impl Clock for SystemClock {
    fn now(&self) -> Duration {
        self.origin.elapsed()
    }
}

/// A simulated clock: it advances by a fixed time per node searched, so a search's
/// simulated time is proportional to its work.
#[derive(Debug)]
pub struct ManualClock {
    nanos: AtomicU64,
    per_node_nanos: u64,
}

impl ManualClock {
    pub fn new(per_node: Duration) -> ManualClock {
        ManualClock {
            nanos: AtomicU64::new(0),
            per_node_nanos: per_node.as_nanos() as u64,
        }
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Duration {
        Duration::from_nanos(self.nanos.load(Ordering::Relaxed))
    }

    fn work(&self, nodes: u64) {
        self.nanos
            .fetch_add(nodes * self.per_node_nanos, Ordering::Relaxed);
    }
}

/// The stop conditions of the running search, shared by its threads.
pub struct Control {
    stop: AtomicBool,
    clock: Arc<dyn Clock>,
    /// Clock reading (ns) at which the search must stop; `u64::MAX` for none.
    deadline_nanos: AtomicU64,
    /// Nodes after which the search stops; `u64::MAX` for none.
    node_limit: AtomicU64,
    nodes: AtomicU64,
}

impl Control {
    pub fn new(clock: Arc<dyn Clock>) -> Control {
        Control {
            stop: AtomicBool::new(false),
            clock,
            deadline_nanos: AtomicU64::new(u64::MAX),
            node_limit: AtomicU64::new(u64::MAX),
            nodes: AtomicU64::new(0),
        }
    }

    /// Arms the control for a new search: no stop, a deadline and a node limit.
    pub fn start(&self, deadline: Option<Duration>, node_limit: Option<u64>) {
        self.stop.store(false, Ordering::Relaxed);
        self.nodes.store(0, Ordering::Relaxed);
        self.deadline_nanos.store(
            deadline.map_or(u64::MAX, |d| d.as_nanos() as u64),
            Ordering::Relaxed,
        );
        self.node_limit
            .store(node_limit.unwrap_or(u64::MAX), Ordering::Relaxed);
    }

    /// The clock's current reading.
    pub fn now(&self) -> Duration {
        self.clock.now()
    }

    /// Asks the search to stop as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// True once the search must unwind.
    #[inline(always)]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Nodes reported so far by all threads.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// A thread reports `new_nodes` more nodes; stops the search when the node limit or
    /// the deadline has passed.
    #[cold]
    pub fn poll(&self, new_nodes: u64) {
        let total = self.nodes.fetch_add(new_nodes, Ordering::Relaxed) + new_nodes;
        self.clock.work(new_nodes);
        if total >= self.node_limit.load(Ordering::Relaxed) {
            self.stop();
            return;
        }
        let deadline = self.deadline_nanos.load(Ordering::Relaxed);
        if deadline != u64::MAX && self.clock.now().as_nanos() as u64 >= deadline {
            self.stop();
        }
    }
}

impl Default for Control {
    fn default() -> Self {
        Control::new(Arc::new(SystemClock::default()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_limit_and_deadline_stop() {
        let c = Control::new(Arc::new(ManualClock::new(Duration::from_micros(1))));
        c.start(None, Some(5000));
        c.poll(4000);
        assert!(!c.stopped());
        c.poll(1024);
        assert!(c.stopped());
        // 5024 nodes at 1 µs each have passed; the deadline is 9 ms.
        c.start(Some(Duration::from_millis(9)), None);
        assert!(!c.stopped());
        c.poll(3000);
        assert!(!c.stopped());
        c.poll(1000);
        assert!(c.stopped());
        assert_eq!(c.nodes(), 4000);
    }
}
