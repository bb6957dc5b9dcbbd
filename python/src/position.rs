//! `pahtum.Position`: a game in progress, with undo, for Python.

use pahtum::arena::schedule::{GameKey, game_seeds};
use pahtum::cli::common::DEFAULT_SEED;
use pahtum::game::text::board_text;
use pahtum::{Bitboard, Game, HoleSetup, Komi, Move, Player, Position, Rules, Square};
use pahtum::{FastRng, derive_seed, layout_rng, parse_boards};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};

use crate::value_error;

/// Path element of the playout stream under a position's seed, so that
/// it never repeats the layout stream drawn from the same seed.
const PLAYOUT_STREAM: u64 = 0x706c_6179;

/// The playout stream of a position made with `seed`.
fn playout_rng(seed: u64) -> FastRng {
    FastRng::new(derive_seed(seed, &[PLAYOUT_STREAM]))
}

/// Komi from a Python number or string, with the CLI's message.
pub(crate) fn parse_komi(komi: &Bound<'_, PyAny>) -> PyResult<Komi> {
    let text = match komi.extract::<String>() {
        Ok(s) => s,
        Err(_) => komi.str()?.to_string(),
    };
    text.parse::<Komi>()
        .map_err(|e| value_error(format!("komi: {e}")))
}

/// The square of a Python square: a name like `d4` or an index
/// `row * size + col`.
fn square_of(size: u8, sq: &Bound<'_, PyAny>) -> PyResult<Square> {
    let n = size as usize;
    if let Ok(i) = sq.extract::<i64>() {
        if i < 0 || i as usize >= n * n {
            return Err(value_error(format!(
                "square index {i} is off the {size}x{size} board (0 to {})",
                n * n - 1
            )));
        }
        let i = i as usize;
        return Ok(Square::new((i % n) as u8, (i / n) as u8));
    }
    let name: String = sq
        .extract()
        .map_err(|_| value_error("a square is a name like 'd4' or an index 0..size*size-1"))?;
    let s: Square = name.trim().parse().map_err(value_error)?;
    if s.col() >= size || s.row() >= size {
        return Err(value_error(format!(
            "square {s} is off the {size}x{size} board"
        )));
    }
    Ok(s)
}

/// The Python index of a square.
pub(crate) fn index_of(size: u8, sq: Square) -> usize {
    sq.row() as usize * size as usize + sq.col() as usize
}

fn colour_name(p: Player) -> &'static str {
    match p {
        Player::White => "white",
        Player::Black => "black",
    }
}

/// A Pah Tum game in progress: the start, the moves played and the current
/// position, so that `undo` takes back any move, a pie swap included.
#[pyclass(module = "pahtum._core", name = "Position")]
#[derive(Clone)]
pub struct PyPosition {
    pub(crate) game: Game,
    // The stream of unseeded playouts: seeding one per call would cost more
    // than the playout itself. It starts from the position's seed, so a
    // script that gives no seed still replays itself.
    rng: FastRng,
}

impl PyPosition {
    fn from_game(game: Game, seed: u64) -> PyPosition {
        PyPosition {
            game,
            rng: playout_rng(seed),
        }
    }

    pub(crate) fn pos(&self) -> &Position {
        self.game.position()
    }

    fn size_n(&self) -> usize {
        self.pos().size() as usize
    }
}

#[pymethods]
impl PyPosition {
    /// `Position(size=7, holes=5, pie=False, komi=0.0, seed=1)`: holes
    /// is a count drawn from `seed` or a list of squares (names or
    /// indices). A count draws the holes of `pahtum play --seed SEED` (the
    /// first layout of a tournament with that seed), and the seed defaults
    /// to the CLI's, so a position and a command line name the same board.
    #[new]
    #[pyo3(signature = (size=7, holes=None, pie=false, komi=None, seed=1))]
    fn new(
        size: i64,
        holes: Option<&Bound<'_, PyAny>>,
        pie: bool,
        komi: Option<&Bound<'_, PyAny>>,
        seed: u64,
    ) -> PyResult<PyPosition> {
        let size: u8 = u8::try_from(size)
            .map_err(|_| value_error(format!("board size {size} is not supported (use 3 to 8)")))?;
        let komi = match komi {
            None => Komi::ZERO,
            Some(k) => parse_komi(k)?,
        };
        let setup = match holes {
            None => HoleSetup::Random(5),
            Some(h) => {
                if let Ok(n) = h.extract::<i64>() {
                    let n = u32::try_from(n)
                        .map_err(|_| value_error(format!("holes: {n} is negative")))?;
                    HoleSetup::Random(n)
                } else {
                    if !(3..=8).contains(&size) {
                        return Err(value_error(format!(
                            "board size {size} is not supported (use 3 to 8)"
                        )));
                    }
                    let mut b = Bitboard::EMPTY;
                    for item in h
                        .try_iter()
                        .map_err(|_| value_error("holes: a count or a list of squares"))?
                    {
                        let sq = square_of(size, &item?)?;
                        if b.contains(sq) {
                            return Err(value_error(format!("holes: square {sq} is given twice")));
                        }
                        b.insert(sq);
                    }
                    HoleSetup::Fixed(b)
                }
            }
        };
        let rules = Rules {
            size,
            holes: setup,
            pie,
            komi,
        };
        let layout = game_seeds(seed, GameKey::Scheduled { layout: 0, game: 0 }).layout;
        let pos = rules
            .new_game(&mut layout_rng(layout))
            .map_err(value_error)?;
        Ok(PyPosition::from_game(Game::new(pos), seed))
    }

    /// A position from board text (docs/RULES.md format: `W`, `B`, `#`,
    /// `.`, top rank first); the side to move follows from the stone counts.
    #[staticmethod]
    #[pyo3(signature = (text, pie=false, komi=None))]
    fn from_text(text: &str, pie: bool, komi: Option<&Bound<'_, PyAny>>) -> PyResult<PyPosition> {
        let komi = match komi {
            None => Komi::ZERO,
            Some(k) => parse_komi(k)?,
        };
        let boards = parse_boards(text).map_err(value_error)?;
        if boards.len() != 1 {
            return Err(value_error(format!(
                "expected one board, found {}",
                boards.len()
            )));
        }
        let pos = boards[0].to_position(pie, komi).map_err(value_error)?;
        Ok(PyPosition::from_game(Game::new(pos), DEFAULT_SEED))
    }

    /// Board side.
    #[getter]
    fn size(&self) -> u8 {
        self.pos().size()
    }

    /// Whether the pie rule is on.
    #[getter]
    fn pie(&self) -> bool {
        self.pos().pie()
    }

    /// Points added to Black's total.
    #[getter]
    fn komi(&self) -> f64 {
        self.pos().komi().points()
    }

    /// Whether the pie swap was taken (the first player then owns Black).
    #[getter]
    fn swapped(&self) -> bool {
        self.pos().swapped()
    }

    /// The colour to move: `"white"` or `"black"`.
    #[getter]
    fn to_move(&self) -> &'static str {
        colour_name(self.pos().turn())
    }

    /// The holes, as square names.
    fn holes(&self) -> Vec<String> {
        self.pos().holes().map(|s| s.to_string()).collect()
    }

    /// The legal moves as names, in square order; `"swap"` last when the
    /// pie rule offers it.
    fn legal_moves(&self) -> Vec<String> {
        let mut v: Vec<String> = self.pos().legal_moves().map(|s| s.to_string()).collect();
        if self.pos().can_swap() {
            v.push("swap".to_string());
        }
        v
    }

    /// The legal moves as indices (`size*size` for the swap).
    fn legal_indices(&self) -> Vec<usize> {
        let size = self.pos().size();
        let mut v: Vec<usize> = self
            .pos()
            .legal_moves()
            .map(|s| index_of(size, s))
            .collect();
        if self.pos().can_swap() {
            v.push(self.size_n() * self.size_n());
        }
        v
    }

    /// One byte per action (`size*size` squares, then the swap): 1 where
    /// legal.
    fn action_mask_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let n = self.size_n();
        let mut m = vec![0u8; n * n + 1];
        for s in self.pos().legal_moves() {
            m[index_of(self.pos().size(), s)] = 1;
        }
        if self.pos().can_swap() {
            m[n * n] = 1;
        }
        PyBytes::new(py, &m)
    }

    /// Plays a square (name or index) or the swap (`"swap"` or index
    /// `size*size`).
    ///
    /// Raises `ValueError` for an illegal move; the position is unchanged.
    fn play(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        let n = self.size_n();
        let m = if mv.extract::<i64>().ok() == Some((n * n) as i64)
            || mv
                .extract::<String>()
                .is_ok_and(|s| s.trim().eq_ignore_ascii_case("swap"))
        {
            Move::Swap
        } else {
            Move::Place(square_of(self.pos().size(), mv)?)
        };
        self.game.try_play(m).map_err(value_error)
    }

    /// Takes back the last move and returns it, or `None` at the start.
    fn undo(&mut self) -> Option<String> {
        self.game.undo().map(|m| m.to_string())
    }

    /// The moves played so far, as names.
    fn moves(&self) -> Vec<String> {
        self.game.moves().iter().map(|m| m.to_string()).collect()
    }

    /// Whether every free square is filled.
    fn is_over(&self) -> bool {
        self.pos().is_game_over()
    }

    /// Both line totals as they stand, `(white, black)`, komi not included.
    fn score(&self) -> (u32, u32) {
        let s = self.pos().scores();
        (s[Player::White], s[Player::Black])
    }

    /// White's total minus Black's with komi, in points.
    fn margin(&self) -> f64 {
        self.pos().margin_halves() as f64 / 2.0
    }

    /// The result by the scores as they stand (komi included): `"white"`,
    /// `"black"` or `"draw"`.
    fn result(&self) -> &'static str {
        self.pos().outcome().name()
    }

    /// An independent copy (its playout stream too, where it stands).
    fn copy(&self) -> PyPosition {
        self.clone()
    }

    fn __copy__(&self) -> PyPosition {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyPosition {
        self.clone()
    }

    /// The board in docs/RULES.md text format.
    fn board_text(&self) -> String {
        board_text(self.pos())
    }

    fn __str__(&self) -> String {
        board_text(self.pos())
    }

    fn __repr__(&self) -> String {
        format!(
            "Position(size={}, to_move={}, moves='{}')",
            self.pos().size(),
            colour_name(self.pos().turn()),
            self.game.moves_text()
        )
    }

    fn __eq__(&self, other: &PyPosition) -> bool {
        self.pos() == other.pos()
    }

    fn __hash__(&self) -> u64 {
        self.pos().hash()
    }

    /// Five planes of `size*size` bytes, indexed `row * size + col`: the
    /// stones of the side to move, the opponent's, holes, empty squares,
    /// and a plane of ones when White is to move.
    fn planes_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let p = self.pos();
        let n = self.size_n();
        let me = p.turn();
        let mut v = vec![0u8; 5 * n * n];
        let planes = [p.stones(me), p.stones(!me), p.holes(), p.empty()];
        for (c, set) in planes.iter().enumerate() {
            for s in *set {
                v[c * n * n + index_of(p.size(), s)] = 1;
            }
        }
        if me == Player::White {
            v[4 * n * n..].fill(1);
        }
        PyBytes::new(py, &v)
    }

    /// The planes of `planes_bytes` as a float32 numpy array of shape
    /// `(5, size, size)`; `planes()[c].reshape(-1)[i]` is square index i.
    fn planes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let n = self.size_n();
        let np = py.import("numpy")?;
        let a = np.call_method1("frombuffer", (self.planes_bytes(py), "uint8"))?;
        a.call_method1("reshape", (5, n, n))?
            .call_method1("astype", ("float32",))
    }

    /// The legal actions as an int8 numpy array of `size*size + 1` entries
    /// (the squares, then the swap).
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let np = py.import("numpy")?;
        np.call_method1("frombuffer", (self.action_mask_bytes(py), "uint8"))?
            .call_method1("astype", ("int8",))
    }

    /// The margin (points, White minus Black with komi) of one uniformly
    /// random playout from here, done in Rust; the position is unchanged.
    /// Without `seed`, the next playout of the position's own stream.
    #[pyo3(signature = (seed=None))]
    fn playout(&mut self, seed: Option<u64>) -> f64 {
        let pos = self.game.position();
        let m = match seed {
            Some(s) => pos.random_playout(&mut FastRng::new(s)),
            None => pos.random_playout(&mut self.rng),
        };
        m as f64 / 2.0
    }

    /// The sum of the margins of `count` random playouts (for measuring
    /// and for flat Monte Carlo), the GIL released. Without `seed`, seeded
    /// from the position's own stream, so two calls draw different
    /// playouts and a rerun of the script draws the same ones.
    #[pyo3(signature = (count, seed=None))]
    fn playouts(&mut self, py: Python<'_>, count: u64, seed: Option<u64>) -> f64 {
        let pos = *self.pos();
        let seed = seed.unwrap_or_else(|| self.rng.next_word());
        py.allow_threads(move || {
            let mut rng = FastRng::new(seed);
            let mut sum: i64 = 0;
            for _ in 0..count {
                sum += pos.random_playout(&mut rng) as i64;
            }
            sum as f64 / 2.0
        })
    }
}

/// Line scores of every board of `text`, as `pahtum score` prints them.
#[pyfunction]
pub fn score_text(py: Python<'_>, text: &str) -> PyResult<Py<PyList>> {
    let boards = parse_boards(text).map_err(value_error)?;
    let v: Vec<(u32, u32)> = boards.iter().map(|b| b.scores()).collect();
    Ok(PyList::new(py, v)?.unbind())
}
