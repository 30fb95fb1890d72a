//! The `damas` binary: parses the command line and hands over to [`damas::cli`].

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = damas::cli::Cli::parse();
    // In the stdin protocols stderr must stay silent unless asked for: pydraughts reads the
    // engine's stderr as protocol lines.
    let quiet = matches!(
        cli.command,
        None | Some(
            damas::cli::Command::Hub | damas::cli::Command::Uci | damas::cli::Command::Text
        )
    );
    let default_level = if quiet { "off" } else { "warn" };
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(default_level))
        .init();
    match damas::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("damas: error: {}", error.0);
            ExitCode::from(2)
        }
    }
}
