//! damas as a CheckerBoard engine: the C functions of the CheckerBoard engine API, version 2
//! (`getmove`, `enginecommand`, `islegal`), exported under their C names with the calling
//! convention the GUIs use (`__stdcall` on 32-bit Windows, the C convention elsewhere).
//!
//! This is the library's one module, and all its unsafe code. It copies the caller's buffers into the safe types
//! of [`damas::protocol::checkerboard`], which owns what they mean, calls the engine there,
//! and copies the answers back. It must not grow logic of its own.
//!
//! A panic never reaches the host: the library is built with the `cb` profile, which unwinds,
//! every export catches what unwinds, answers as for bad input and starts the engine afresh on
//! the next call.

#![deny(unsafe_op_in_unsafe_fn)]

#[cfg(panic = "abort")]
compile_error!(
    "build the CheckerBoard library with `cargo build --profile cb -p damas-cb`: with \
     panic = \"abort\" a panic would end the GUI that loaded it"
);

use damas::protocol::checkerboard::{
    Board8x8, CB_UNKNOWN, COMMAND_SIZE, CbMove, CheckerBoard, TEXT_SIZE, TimeRequest, fit,
};
use std::ffi::{c_char, c_int};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Mutex, MutexGuard, TryLockError};

/// The engine, built on the first call. `getmove` holds it for the whole search; the other
/// functions do not wait for it (a GUI calls them from its window thread).
static ENGINE: Mutex<Option<CheckerBoard>> = Mutex::new(None);

/// The longest command read: CheckerBoard declares 256 bytes but builds `set gamehist` from a
/// string of any length; the cap only bounds a string that lost its NUL.
const COMMAND_LIMIT: usize = 1 << 16;

/// A new engine, for the game type the library's file name names (see
/// [`CheckerBoard::for_library`]).
fn new_engine() -> CheckerBoard {
    CheckerBoard::for_library(&library_file().unwrap_or_default())
}

/// The path of this library's file, from the address of one of its functions.
#[cfg(unix)]
fn library_file() -> Option<String> {
    let mut found = std::mem::MaybeUninit::<libc::Dl_info>::zeroed();
    // SAFETY: dladdr only reads the address and fills the structure it is given.
    let ok = unsafe { libc::dladdr(library_file as *const libc::c_void, found.as_mut_ptr()) };
    if ok == 0 {
        return None;
    }
    // SAFETY: dladdr succeeded, so the structure is filled; dli_fname is null or a C string
    // owned by the loader for as long as the library stays loaded.
    let name = unsafe { found.assume_init() }.dli_fname;
    (!name.is_null())
        .then(|| unsafe { std::ffi::CStr::from_ptr(name) }.to_string_lossy().into_owned())
}

/// The path of this library's file, from the address of one of its functions.
#[cfg(windows)]
fn library_file() -> Option<String> {
    use std::ffi::c_void;
    const FROM_ADDRESS: u32 = 0x4; // GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS
    const UNCHANGED_REFCOUNT: u32 = 0x2; // GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT
    #[link(name = "kernel32")]
    unsafe extern "system" {
        fn GetModuleHandleExW(flags: u32, name: *const u16, module: *mut *mut c_void) -> i32;
        fn GetModuleFileNameW(module: *mut c_void, name: *mut u16, size: u32) -> u32;
    }
    let mut module = std::ptr::null_mut();
    let address = library_file as *const u16;
    // SAFETY: with FROM_ADDRESS the name argument is an address inside the module; the handle
    // is written to `module` and, with UNCHANGED_REFCOUNT, needs no release.
    if unsafe { GetModuleHandleExW(FROM_ADDRESS | UNCHANGED_REFCOUNT, address, &mut module) } == 0 {
        return None;
    }
    let mut buffer = vec![0u16; 32 * 1024];
    // SAFETY: the buffer holds `buffer.len()` wide characters; the call writes at most that.
    let length = unsafe { GetModuleFileNameW(module, buffer.as_mut_ptr(), buffer.len() as u32) };
    (length > 0).then(|| String::from_utf16_lossy(&buffer[..length as usize]))
}

#[cfg(not(any(unix, windows)))]
fn library_file() -> Option<String> {
    None
}

/// The engine, waiting for a running search. A panic that unwound through a call leaves the
/// engine usable (a search in progress holds the engine outside the session, which builds a new
/// one; the options, game type and history stay), so the lock is simply cleared of it.
fn engine() -> MutexGuard<'static, Option<CheckerBoard>> {
    ENGINE.lock().unwrap_or_else(|poisoned| {
        ENGINE.clear_poison();
        poisoned.into_inner()
    })
}

/// The engine, unless a search holds it.
fn engine_now() -> Option<MutexGuard<'static, Option<CheckerBoard>>> {
    match ENGINE.try_lock() {
        Ok(guard) => Some(guard),
        Err(TryLockError::Poisoned(poisoned)) => {
            ENGINE.clear_poison();
            Some(poisoned.into_inner())
        }
        Err(TryLockError::WouldBlock) => None,
    }
}

/// A C text buffer of [`TEXT_SIZE`] bytes owned by the caller (null: none).
#[derive(Clone, Copy)]
struct TextBuffer(*mut c_char);

impl TextBuffer {
    /// Writes `text`, cut to fit, with its NUL.
    fn write(self, text: &str) {
        if self.0.is_null() {
            return;
        }
        let text = fit(text, TEXT_SIZE);
        // SAFETY: the API gives `char str[1024]` and `char reply[1024]`, valid for writes for
        // the whole call; `fit` leaves room for the NUL, and the pointer is not null. The NUL
        // goes first: the GUI reads the status text while the search writes it, and must
        // always find a terminator.
        unsafe {
            self.0.add(text.len()).write(0);
            std::ptr::copy_nonoverlapping(text.as_ptr().cast::<c_char>(), self.0, text.len());
        }
    }
}

/// The caller's `playnow` flag (null: none), read by the search's watcher thread.
struct PlayNow(*mut c_int);

// SAFETY: the flag is an int that the GUI sets from its own thread while `getmove` runs, and
// which outlives the call; the watcher only reads it, atomically, until `getmove` returns.
unsafe impl Sync for PlayNow {}

impl PlayNow {
    fn now(&self) -> bool {
        if self.0.is_null() {
            return false;
        }
        // SAFETY: see the `Sync` impl; a C int is 4-aligned like an AtomicI32, and every
        // access on this side is this atomic load.
        unsafe { AtomicI32::from_ptr(self.0) }.load(Ordering::Relaxed) != 0
    }
}

/// The C string at `text`, up to its NUL or [`COMMAND_LIMIT`] bytes.
///
/// # Safety
/// `text` is null or points to a NUL-terminated string.
unsafe fn read_command(text: *const c_char) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(COMMAND_SIZE);
    if text.is_null() {
        return bytes;
    }
    for offset in 0..COMMAND_LIMIT {
        // SAFETY: the caller's string is readable up to and including its NUL, and we stop
        // at the NUL.
        let byte = unsafe { text.add(offset).read() } as u8;
        if byte == 0 {
            break;
        }
        bytes.push(byte);
    }
    bytes
}

/// Reads the board array.
///
/// # Safety
/// `board` is null or points to CheckerBoard's `int board[8][8]`.
unsafe fn read_board(board: *const Board8x8) -> Option<Board8x8> {
    // SAFETY: the caller's board is 64 readable ints when it is not null.
    (!board.is_null()).then(|| unsafe { board.read_unaligned() })
}

/// `int getmove(int board[8][8], int color, double maxtime, char str[1024], int *playnow,
/// int info, int moreinfo, struct CBmove *move)`: plays a move for `color` on `board`, writing
/// the board after it back into `board` and the move into `move`; returns CB_WIN, CB_LOSS,
/// CB_DRAW or, for an unreadable board or colour (the reason in `str`, the board untouched),
/// CB_UNKNOWN.
///
/// # Safety
/// The pointers are null or valid as the CheckerBoard API describes, for the whole call.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)] // the API's signature
pub unsafe extern "system" fn getmove(
    board: *mut Board8x8,
    color: c_int,
    maxtime: f64,
    status: *mut c_char,
    playnow: *const c_int,
    info: c_int,
    moreinfo: c_int,
    mv: *mut CbMove,
) -> c_int {
    let status = TextBuffer(status);
    let playnow = PlayNow(playnow.cast_mut());
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: as the function's contract says.
        let mut local = unsafe { read_board(board) }.ok_or("no board")?;
        let mut guard = engine();
        let engine = guard.get_or_insert_with(new_engine);
        let time = TimeRequest { maxtime, info, moreinfo };
        let answer =
            engine.getmove(&mut local, color, time, &mut |text| status.write(text), &|| {
                playnow.now()
            })?;
        // SAFETY: the board was readable above, and the API makes it writable.
        unsafe { board.write_unaligned(local) };
        if let Some(record) = answer.mv.filter(|_| !mv.is_null()) {
            // SAFETY: `move` points to the caller's `struct CBmove`, which has this layout.
            unsafe { mv.write_unaligned(record) };
        }
        Ok::<c_int, String>(answer.result)
    }));
    match outcome {
        Ok(Ok(result)) => result,
        Ok(Err(message)) => {
            status.write(&format!("damas: {message}"));
            CB_UNKNOWN
        }
        Err(_) => {
            status.write("damas: internal error; the engine restarts");
            CB_UNKNOWN
        }
    }
}

/// `int enginecommand(char command[256], char reply[1024])`: answers a command in `reply`;
/// returns 1 when it was understood and carried out, 0 otherwise (`?` for an unknown one).
///
/// # Safety
/// `command` is null or a NUL-terminated string; `reply` is null or 1024 writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "system" fn enginecommand(command: *const c_char, reply: *mut c_char) -> c_int {
    let reply = TextBuffer(reply);
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: as the function's contract says.
        let bytes = unsafe { read_command(command) };
        let text = std::str::from_utf8(&bytes).map_err(|_| "the command is not UTF-8 text")?;
        if let Some(answer) = CheckerBoard::static_reply(text) {
            return Ok(answer);
        }
        let mut guard = engine_now().ok_or("damas is searching; ask again after its move")?;
        // Debug builds only: lets the test host check that a panic with the engine locked
        // stops at this boundary and leaves the engine as it was.
        #[cfg(debug_assertions)]
        if text == "debug panic" {
            panic!("the test host asked for a panic");
        }
        guard.get_or_insert_with(new_engine).command(text)
    }));
    let (answer, understood) = match outcome {
        Ok(Ok(answer)) => (answer, 1),
        Ok(Err(message)) => (message, 0),
        Err(_) => ("damas: internal error; the engine restarts".to_string(), 0),
    };
    reply.write(&answer);
    understood
}

/// `int islegal(int board[8][8], int color, int from, int to, struct CBmove *move)`: 1 and the
/// move in `move` when `color` may play from square `from` to square `to` (CheckerBoard's
/// numbers for the game type), 0 otherwise.
///
/// # Safety
/// The pointers are null or valid as the CheckerBoard API describes, for the whole call.
#[unsafe(no_mangle)]
pub unsafe extern "system" fn islegal(
    board: *const Board8x8,
    color: c_int,
    from: c_int,
    to: c_int,
    mv: *mut CbMove,
) -> c_int {
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: as the function's contract says.
        let board = unsafe { read_board(board) }?;
        let mut guard = engine_now()?;
        let record = guard.get_or_insert_with(new_engine).islegal(&board, color, from, to)?;
        if !mv.is_null() {
            // SAFETY: `move` points to the caller's `struct CBmove`, which has this layout.
            unsafe { mv.write_unaligned(record) };
        }
        Some(())
    }));
    match outcome {
        Ok(Some(())) => 1,
        _ => 0,
    }
}
