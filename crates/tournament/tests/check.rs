//! Tournament settings: what `check` accepts, and that it says why it refuses.

use arbiter_tournament::{arena, check, pools, round_robin, swiss, Format};

fn refused(result: Result<(), String>, words: &str) {
    let message = result.expect_err("refused");
    assert!(
        message.contains(words),
        "{message:?} should mention {words:?}"
    );
}

#[test]
fn accepts_the_usual_settings() {
    assert_eq!(check(Format::Swiss, 2, 2, 64, Some(7)), Ok(()));
    assert_eq!(
        check(
            Format::Swiss,
            2,
            2,
            swiss::MAX_ENTRANTS,
            Some(swiss::MAX_ROUNDS)
        ),
        Ok(())
    );
    assert_eq!(
        check(Format::Swiss, 4, 3, pools::MAX_ENTRANTS, Some(5)),
        Ok(())
    );
    assert_eq!(
        check(Format::Arena, 2, 2, arena::MAX_ENTRANTS, None),
        Ok(())
    );
    assert_eq!(
        check(Format::RoundRobin, 2, 2, round_robin::MAX_ENTRANTS, None),
        Ok(())
    );
    assert_eq!(check(Format::RoundRobin, 4, 4, 8, None), Ok(()));
    assert_eq!(check(Format::RoundRobin, 3, 3, 8, None), Ok(()));
}

#[test]
fn refuses_with_reasons() {
    refused(check(Format::Swiss, 1, 1, 8, Some(3)), "2 to 4 seats");
    refused(check(Format::Swiss, 5, 2, 8, Some(3)), "2 to 4 seats");
    refused(check(Format::Swiss, 4, 5, 8, Some(3)), "smallest table");
    refused(check(Format::Swiss, 3, 1, 8, Some(3)), "smallest table");
    refused(
        check(Format::Arena, 3, 3, 30, None),
        "an arena pairs two seats",
    );
    refused(
        check(Format::Swiss, 2, 2, 257, Some(5)),
        "at most 256 entrants",
    );
    refused(
        check(Format::Swiss, 3, 2, 2000, Some(5)),
        "at most 1024 entrants",
    );
    refused(
        check(Format::Arena, 2, 2, 10_001, None),
        "at most 10000 entrants",
    );
    refused(
        check(Format::RoundRobin, 2, 2, 17, None),
        "at most 16 entrants",
    );
    refused(
        check(Format::RoundRobin, 4, 4, 9, None),
        "at most 8 entrants",
    );
    refused(check(Format::Swiss, 2, 2, 16, Some(0)), "1 to 50 rounds");
    refused(check(Format::Swiss, 2, 2, 16, Some(51)), "1 to 50 rounds");
    refused(
        check(Format::Swiss, 2, 2, 16, None),
        "needs a number of rounds",
    );
    refused(check(Format::Arena, 2, 2, 16, Some(3)), "give no rounds");
    refused(
        check(Format::RoundRobin, 2, 2, 8, Some(7)),
        "give no rounds",
    );
    refused(
        check(Format::Swiss, 4, 4, 3, Some(3)),
        "cannot fill a table of 4",
    );
}
