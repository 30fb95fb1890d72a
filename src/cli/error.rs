//! The binary's one error type: whatever the user gave that cannot be done ends as one line on
//! stderr and exit status 2 (`main`). Every command module returns it; it depends on nothing.

/// A user error: printed as one line, exit status 2.
#[derive(Debug)]
pub struct UserError(pub String);

impl<E: std::error::Error> From<E> for UserError {
    fn from(error: E) -> Self {
        UserError(error.to_string())
    }
}
