/**
 * A balanced ordered set whose order is given at insertion by a comparison with the new item, not
 * by a key: the status of a plane sweep, where edges are ordered by where they cross the sweep
 * line and that order can only be computed while the new edge's left end is the sweep position
 * (Shamos & Hoey 1976, "Geometric intersection problems", FOCS; de Berg et al., Computational
 * Geometry, 3rd ed., section 2.1).
 *
 * A treap (Seidel & Aragon 1996, "Randomized search trees", Algorithmica 16): a search tree
 * that is also a heap on random priorities, so every operation takes O(log n) expected time
 * whatever the input and whatever its order; the priorities come from Math.random, never from
 * the input, so no input can be built to unbalance it. Nodes keep their parent, so a node is
 * removed, and its neighbours found, without comparing anything: at the moment an edge leaves
 * the sweep its order against the others is no longer defined.
 */
export interface SetNode<T> {
  readonly item: T;
  left: SetNode<T> | null;
  right: SetNode<T> | null;
  parent: SetNode<T> | null;
  priority: number;
}

export class OrderedSet<T> {
  private root: SetNode<T> | null = null;

  /** Inserts item; `side(other)` is > 0 when item goes after (above) other, < 0 before it. */
  insert(item: T, side: (other: T) => number): SetNode<T> {
    const node: SetNode<T> = { item, left: null, right: null, parent: null, priority: Math.random() };
    if (!this.root) return (this.root = node);
    let at = this.root;
    for (;;) {
      if (side(at.item) < 0) {
        if (!at.left) {
          at.left = node;
          break;
        }
        at = at.left;
      } else {
        if (!at.right) {
          at.right = node;
          break;
        }
        at = at.right;
      }
    }
    node.parent = at;
    while (node.parent && node.parent.priority > node.priority) this.rotateUp(node);
    return node;
  }

  remove(node: SetNode<T>): void {
    // Rotate the node down to where it has at most one child, keeping the heap order, then splice it out.
    while (node.left && node.right) this.rotateUp(node.left.priority < node.right.priority ? node.left : node.right);
    const child = node.left ?? node.right;
    if (child) child.parent = node.parent;
    this.replaceChild(node.parent, node, child);
    node.parent = node.left = node.right = null;
  }

  first(): SetNode<T> | null {
    let at = this.root;
    while (at?.left) at = at.left;
    return at;
  }

  next(node: SetNode<T>): SetNode<T> | null {
    if (node.right) {
      let at = node.right;
      while (at.left) at = at.left;
      return at;
    }
    let at: SetNode<T> = node;
    while (at.parent && at.parent.right === at) at = at.parent;
    return at.parent;
  }

  prev(node: SetNode<T>): SetNode<T> | null {
    if (node.left) {
      let at = node.left;
      while (at.right) at = at.right;
      return at;
    }
    let at: SetNode<T> = node;
    while (at.parent && at.parent.left === at) at = at.parent;
    return at.parent;
  }

  /** The last node for which `before` holds, when it holds for a prefix of the order (binary search). */
  lastWhere(before: (item: T) => boolean): SetNode<T> | null {
    let at = this.root,
      found: SetNode<T> | null = null;
    while (at) {
      if (before(at.item)) {
        found = at;
        at = at.right;
      } else at = at.left;
    }
    return found;
  }

  private rotateUp(node: SetNode<T>): void {
    const parent = node.parent!;
    const grand = parent.parent;
    if (parent.left === node) {
      parent.left = node.right;
      if (node.right) node.right.parent = parent;
      node.right = parent;
    } else {
      parent.right = node.left;
      if (node.left) node.left.parent = parent;
      node.left = parent;
    }
    parent.parent = node;
    node.parent = grand;
    this.replaceChild(grand, parent, node);
  }

  private replaceChild(parent: SetNode<T> | null, old: SetNode<T>, child: SetNode<T> | null): void {
    if (!parent) this.root = child;
    else if (parent.left === old) parent.left = child;
    else parent.right = child;
  }
}
