//! Board text (docs/RULES.md): any input parses or is refused with a place
//! inside the input, and a parsed board printed again parses back to the
//! same board.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pahtum::Komi;
use pahtum::game::text::{Board, board_text, board_to_text, parse_boards};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let boards = match parse_boards(text) {
        Ok(boards) => boards,
        Err(e) => {
            // The error names a board, line and column of this input.
            let lines = text.lines().count().max(1);
            assert!(e.board >= 1 && e.column >= 1, "{e}");
            assert!((1..=lines).contains(&e.line), "{e} of {lines} lines");
            return;
        }
    };
    assert!(!boards.is_empty());
    for b in &boards {
        let printed = board_to_text(b);
        let back = parse_boards(&printed).expect("a printed board parses");
        assert_eq!(back, vec![*b], "{printed}");
        let _ = b.scores();
        for (pie, komi) in [(false, Komi::ZERO), (true, Komi::from_halves(-13))] {
            if let Ok(pos) = b.to_position(pie, komi) {
                assert_eq!(Board::from(&pos), *b);
                assert_eq!(board_text(&pos), printed);
                let _ = pos.scores();
            }
        }
    }
});
