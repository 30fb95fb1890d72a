//! Progress of long jobs on stderr: an indicatif bar with the time left where stderr is a
//! terminal, and where it is not (a log file, CI) a plain line every tenth of the job, which
//! the bar would not draw.

use crate::error::UserError;
use std::time::Instant;

/// A job's progress.
pub struct Progress {
    bar: indicatif::ProgressBar,
    started: Instant,
    unit: &'static str,
    last_tenth: u64,
    /// Done before this process started (a resumed job): not counted in its pace.
    first: u64,
}

impl Progress {
    /// A job of `total` `unit`s (`games`).
    ///
    /// # Errors
    /// The bar's template (never, short of a bug).
    pub fn new(total: u64, unit: &'static str) -> Result<Progress, UserError> {
        let template = format!(
            "{{bar:30}} {{pos}}/{{len}} {unit}, {{msg}} [{{elapsed_precise}}, {{eta}} left]"
        );
        let style = indicatif::ProgressStyle::with_template(&template)
            .map_err(|e| UserError(format!("progress bar: {e}")))?;
        let bar = indicatif::ProgressBar::with_draw_target(
            Some(total),
            indicatif::ProgressDrawTarget::stderr(),
        );
        bar.set_style(style);
        Ok(Progress { bar, started: Instant::now(), unit, last_tenth: 0, first: 0 })
    }

    /// A resumed job: `done` of the total were done before it started, so the time left is
    /// reckoned from the pace of what is done from here on.
    pub fn start_at(&mut self, done: u64) {
        self.first = done;
        self.bar.set_position(done);
        self.bar.reset_eta();
        self.started = Instant::now();
        let total = self.bar.length().unwrap_or(0).max(1);
        self.last_tenth = done * 10 / total;
    }

    /// Sets the total.
    pub fn set_total(&mut self, total: u64) {
        self.bar.set_length(total);
    }

    /// A line above the bar (or on its own where the bar is hidden).
    pub fn println(&self, line: &str) {
        if self.bar.is_hidden() {
            eprintln!("{line}");
        } else {
            self.bar.println(line);
        }
    }

    /// `done` of the total are done; `message` says how it stands.
    pub fn update(&mut self, done: u64, message: &str, quiet_lines: bool) {
        // A resumed job passes over what was done before it started without moving the bar.
        let done = done.max(self.first);
        self.bar.set_position(done);
        self.bar.set_message(message.to_string());
        let total = self.bar.length().unwrap_or(0).max(1);
        let tenth = done * 10 / total;
        if self.bar.is_hidden() && !quiet_lines && tenth > self.last_tenth {
            self.last_tenth = tenth;
            let elapsed = self.started.elapsed().as_secs_f64();
            let pace = elapsed / done.saturating_sub(self.first).max(1) as f64;
            let left = pace * total.saturating_sub(done) as f64;
            eprintln!(
                "{done}/{total} {}, {message} ({elapsed:.0} s, about {left:.0} s left)",
                self.unit
            );
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
