//! The `qijudge` binary: parse arguments, run, map errors to exit codes
//! (0 success, 1 refused input, 2 usage or I/O error).

use clap::Parser;
use std::process::ExitCode;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = match qijudge::cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match qijudge::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // Never a panic, even when standard error is closed.
            let _ = std::io::Write::write_all(
                &mut std::io::stderr(),
                format!("{}\n", qijudge_game::console::name_folder(&e.to_string())).as_bytes(),
            );
            ExitCode::from(e.exit_code() as u8)
        }
    }
}
