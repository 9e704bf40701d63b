mod cli_game;
mod helpers;
mod interop;
mod noninterference;
mod protocol;
mod refusals;
mod schemas;
mod tamper;
