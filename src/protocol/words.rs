//! `--engine NAME=COMMAND`: the name, and the command split into words the
//! way a POSIX shell splits simple words, without ever running a shell.
//!
//! Splitting rules: words are separated by spaces or tabs; `'...'` keeps
//! everything literally; `"..."` keeps everything except that `\"`, `\\`,
//! `\$` and `` \` `` stand for the second character; outside quotes `\x`
//! stands for `x`. Characters a shell would give a meaning to (`| & ; < > (
//! ) $` `` ` `` and `* ? [ ~`) are refused unless quoted, so a command never
//! means something different here than in a terminal: a pipe or a
//! redirection needs an explicit `sh -c '...'`.

use std::path::{Path, PathBuf};

/// Characters that would make a shell do something other than pass a word.
const SPECIAL: &[char] = &[
    '|', '&', ';', '<', '>', '(', ')', '$', '`', '*', '?', '[', '~',
];

/// Splits `command` into words.
///
/// # Errors
/// An unclosed quote, a trailing backslash, an unquoted special character,
/// or no words at all; the message names the problem.
pub fn split_words(command: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("unclosed single quote".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err("unclosed double quote".into()),
                        },
                        Some(c) => word.push(c),
                        None => return Err("unclosed double quote".into()),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => {
                    in_word = true;
                    word.push(c);
                }
                None => return Err("a backslash at the end".into()),
            },
            c if SPECIAL.contains(&c) => {
                return Err(format!(
                    "'{c}' is special to a shell, and no shell runs the command: quote it, \
                     or write sh -c '...' to get a shell"
                ));
            }
            c if c.is_control() => {
                return Err("a control character in the command".into());
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("the command is empty".into());
    }
    Ok(words)
}

/// Parses `NAME=COMMAND`: a name usable as a bot spec and its command's
/// words.
///
/// # Errors
/// No `=`, a bad name, or a command [`split_words`] refuses.
pub fn parse_engine_arg(arg: &str) -> Result<(String, Vec<String>), String> {
    let Some((name, command)) = arg.split_once('=') else {
        return Err("expected NAME=COMMAND, like greedy_py=\"python3 greedy_engine.py\"".into());
    };
    let name = name.trim();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(format!(
            "bad engine name '{name}': use letters, digits, '_' or '-'"
        ));
    }
    Ok((name.to_string(), split_words(command)?))
}

/// Finds the program a command starts: a path (anything with a `/`) as
/// given, else the first executable file of that name on `PATH`.
///
/// # Errors
/// Not found, or not an executable file.
pub fn find_program(program: &str) -> Result<PathBuf, String> {
    if program.contains('/') {
        let p = PathBuf::from(program);
        return if is_executable(&p) {
            Ok(p)
        } else if p.is_file() {
            Err(format!("program '{program}' is not executable"))
        } else {
            Err(format!("program '{program}' not found"))
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| is_executable(p))
        .ok_or_else(|| format!("program '{program}' not found on PATH"))
}

fn is_executable(p: &Path) -> bool {
    let Ok(meta) = p.metadata() else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &str) -> Vec<String> {
        split_words(s).expect(s)
    }

    #[test]
    fn splits_like_a_shell() {
        assert_eq!(
            w("python3  bot.py --depth 3"),
            ["python3", "bot.py", "--depth", "3"]
        );
        assert_eq!(w("a 'b c' \"d e\" f\\ g"), ["a", "b c", "d e", "f g"]);
        assert_eq!(w("'it'\"s\" ''"), ["its", ""]);
        assert_eq!(w(r#""a\"b\\c\n""#), ["a\"b\\c\\n"]);
        assert_eq!(w("sh -c 'a | b > c'"), ["sh", "-c", "a | b > c"]);
        for bad in [
            "", "  ", "a 'b", "a \"b", "a\\", "a | b", "a > f", "a; b", "$HOME/x", "~/x", "x*",
        ] {
            assert!(split_words(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn engine_args() {
        let (n, words) = parse_engine_arg("py=python3 x.py").expect("ok");
        assert_eq!((n.as_str(), words.len()), ("py", 2));
        assert!(parse_engine_arg("python3 x.py").is_err());
        assert!(parse_engine_arg("a b=x").is_err());
        assert!(parse_engine_arg("a=").is_err());
    }

    #[cfg(unix)]
    #[test]
    fn finds_programs() {
        assert!(find_program("sh").is_ok());
        assert!(find_program("/bin/sh").is_ok());
        assert!(find_program("no-such-program-pahtum").is_err());
        assert!(find_program("./no/such").is_err());
    }
}
