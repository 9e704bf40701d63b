//! End-to-end tests over real game directories, driving the real `qijudge` binary.
//! One test binary with submodules keeps link time low.

mod suite;
