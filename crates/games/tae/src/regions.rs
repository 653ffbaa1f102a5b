//! Regions: the maximal orthogonally connected sets of occupied cells.
//!
//! The original implementation stored a region id per system and patched it by hand,
//! which left stale ids behind after moves, bombs and conflicts (background §2.13, 3–5).
//! Here regions are only ever *computed*: `label` is called by every board mutation,
//! and `verify` checks a labelling against an independent union–find so tests can
//! prove the invariant after every action.

/// Grid geometry shared by the labelling and the checker.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Grid {
    pub width: usize,
    pub height: usize,
}

impl Grid {
    /// The orthogonal neighbours of `cell` (N/S/E/W, no wrap), as a fixed array.
    pub fn neighbors(self, cell: usize) -> Neighbors {
        let (x, y) = (cell % self.width, cell / self.width);
        let mut out = Neighbors {
            cells: [0; 4],
            len: 0,
        };
        let mut push = |c: usize| {
            out.cells[out.len] = c;
            out.len += 1;
        };
        if x > 0 {
            push(cell - 1);
        }
        if x + 1 < self.width {
            push(cell + 1);
        }
        if y > 0 {
            push(cell - self.width);
        }
        if y + 1 < self.height {
            push(cell + self.width);
        }
        out
    }
}

/// Up to four neighbouring cells without allocating.
#[derive(Debug, Clone, Copy)]
pub struct Neighbors {
    cells: [usize; 4],
    len: usize,
}

impl Neighbors {
    pub fn as_slice(&self) -> &[usize] {
        &self.cells[..self.len]
    }
}

impl IntoIterator for Neighbors {
    type Item = usize;
    type IntoIter = std::iter::Take<std::array::IntoIter<usize, 4>>;
    fn into_iter(self) -> Self::IntoIter {
        self.cells.into_iter().take(self.len)
    }
}

/// Label the connected components of the occupied cells. Ids are canonical: region 0
/// contains the lowest occupied cell id, region 1 the lowest cell not in region 0, and
/// so on, so equal boards always get equal labels.
pub(crate) fn label(grid: Grid, occupied: &[bool]) -> (Vec<Option<u32>>, u32) {
    let mut labels = vec![None; occupied.len()];
    let mut next = 0u32;
    let mut stack = Vec::new();
    for start in 0..occupied.len() {
        if !occupied[start] || labels[start].is_some() {
            continue;
        }
        labels[start] = Some(next);
        stack.push(start);
        while let Some(cell) = stack.pop() {
            for n in grid.neighbors(cell) {
                if occupied[n] && labels[n].is_none() {
                    labels[n] = Some(next);
                    stack.push(n);
                }
            }
        }
        next += 1;
    }
    (labels, next)
}

/// Check that `labels` are exactly the canonical maximal connected components of
/// `occupied`, using union–find (a different algorithm from [`label`]).
pub(crate) fn verify(grid: Grid, occupied: &[bool], labels: &[Option<u32>]) -> Result<(), String> {
    let n = occupied.len();
    if labels.len() != n {
        return Err(format!("{} labels for {n} cells", labels.len()));
    }
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut a: usize) -> usize {
        while parent[a] != a {
            parent[a] = parent[parent[a]];
            a = parent[a];
        }
        a
    }
    for cell in 0..n {
        if !occupied[cell] {
            if labels[cell].is_some() {
                return Err(format!("empty cell {cell} has a region"));
            }
            continue;
        }
        if labels[cell].is_none() {
            return Err(format!("occupied cell {cell} has no region"));
        }
        for nb in grid.neighbors(cell) {
            if occupied[nb] {
                let (a, b) = (find(&mut parent, cell), find(&mut parent, nb));
                parent[a] = b;
            }
        }
    }
    // Same partition: cells share a label exactly when they share a root; labels are
    // numbered in order of each component's lowest cell.
    let mut root_label: Vec<Option<u32>> = vec![None; n];
    let mut next = 0u32;
    for (cell, &label) in labels.iter().enumerate() {
        let Some(label) = label else { continue };
        let root = find(&mut parent, cell);
        match root_label[root] {
            None => {
                if label != next {
                    return Err(format!(
                        "cell {cell} starts a component but is labelled {label}, expected {next}"
                    ));
                }
                root_label[root] = Some(label);
                next += 1;
            }
            Some(expected) if expected != label => {
                return Err(format!(
                    "cell {cell} is labelled {label} but is connected to region {expected}"
                ));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_components_canonically_and_verifies() {
        // 4 × 2:  row 1: X . X X
        //         row 0: X . . X
        let grid = Grid {
            width: 4,
            height: 2,
        };
        let occupied = [true, false, false, true, true, false, true, true];
        let (labels, count) = label(grid, &occupied);
        assert_eq!(count, 2);
        assert_eq!(
            labels,
            vec![
                Some(0),
                None,
                None,
                Some(1),
                Some(0),
                None,
                Some(1),
                Some(1)
            ]
        );
        assert_eq!(verify(grid, &occupied, &labels), Ok(()));
        let mut wrong = labels.clone();
        wrong[7] = Some(0);
        assert!(verify(grid, &occupied, &wrong).is_err());
        let mut split = labels;
        split[6] = Some(2);
        assert!(verify(grid, &occupied, &split).is_err());
    }
}
