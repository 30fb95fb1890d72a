//! The `damas` binary: parses the command line and hands over to [`damas::cli`].

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = damas::cli::Cli::parse();
    match damas::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("damas: error: {}", error.0);
            ExitCode::from(2)
        }
    }
}
