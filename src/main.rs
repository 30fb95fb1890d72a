//! The `damas` binary: parses the command line and hands over to [`cli`]. The command line
//! lives here, not in the library, so that users of the library do not build clap.

mod book_cli;
mod cli;
mod egdb_cli;
mod match_cli;
mod pdn_cli;
mod progress;
mod train_cli;

use clap::{CommandFactory, FromArgMatches};
use std::process::ExitCode;

fn main() -> ExitCode {
    // A reader that goes away early (`damas moves | head -1`) makes printing fail; that is the
    // reader's choice, not an error of ours: leave quietly, as Unix tools do.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.contains("failed printing to stdout") {
            std::process::exit(0);
        }
        default_hook(info);
    }));
    let matches = cli::Cli::command().get_matches();
    let mut cli = cli::Cli::from_arg_matches(&matches).unwrap_or_else(|error| error.exit());
    if let (Some(cli::Command::Match(args)), Some(("match", sub))) =
        (&mut cli.command, matches.subcommand())
    {
        args.group_engines(sub);
    }
    // In the stdin protocols stderr must stay silent unless asked for: pydraughts reads the
    // engine's stderr as protocol lines.
    let quiet = matches!(
        cli.command,
        None | Some(cli::Command::Hub | cli::Command::Uci | cli::Command::Text)
    );
    let default_level = if quiet { "off" } else { "warn" };
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(default_level))
        .init();
    match cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("damas: error: {}", error.0);
            ExitCode::from(2)
        }
    }
}
