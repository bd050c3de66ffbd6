#include "solvers/line_search.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pliant {
namespace {

constexpr double kMinCurvature = 1e-15;

// The pieces of a non-elliptic row's cost (see solvers/cost.h).
enum class Piece { kZero, kQuadratic, kLinearNeg, kLinearPos };

// Row i's quadratic piece 0.5 D (jar + alpha jv)^2 as coefficients
// [0.5 D jar^2, D jv jar, 0.5 D jv^2] of 1, alpha, alpha^2.
[[gnu::always_inline]] inline void quadratic_terms(const LineSearchInput& in, int i, double* c) {
  const double d = in.problem->D[i], jar = in.jar[i], jv = in.jv[i];
  c[0] = 0.5 * d * jar * jar;
  c[1] = d * jv * jar;
  c[2] = 0.5 * d * jv * jv;
}

// q += a row's coefficients for `piece` (row_terms, quadratic_terms).
[[gnu::always_inline]] inline void add_terms(double* q, const double* c, Piece piece) {
  if (piece == Piece::kZero) return;
  q[0] += c[0];
  q[1] += c[1];
  if (piece == Piece::kQuadratic) q[2] += c[2];
}

// One elliptic cone along the line. With N(alpha) = mu (jar0 + alpha jv0)
// and T(alpha)^2 = ta + 2 tb alpha + tc alpha^2 (weighted tangential part),
// the middle zone's cost 0.5 Dm (N - mu T)^2 has derivative
// Dm (N - mu T)(N' - mu T') and second derivative
// Dm ((N' - mu T')^2 - (N - mu T) mu T''), T' = (tb + tc alpha)/T,
// T'' = (tc - T'^2)/T. In the bottom zone the rows' quadratic
// coefficients are added to q; the middle zone goes into point directly.
void add_cone(const LineSearchInput& in, const ConeGroup& cone, double alpha, double* q,
              LinePoint& point) {
  const ConstraintProblem& p = *in.problem;
  const int first = cone.first_row, dim = cone.dim;
  const double mu = cone.mu;
  const double* jar = in.jar + first;
  const double* jv = in.jv + first;
  const double n = mu * (jar[0] + alpha * jv[0]);
  const double n1 = mu * jv[0];
  double tb = 0, tc = 0, t2 = 0;
  for (int j = 1; j < dim; ++j) {
    const double w2 = cone.friction[j - 1] * cone.friction[j - 1];
    const double u = jar[j] + alpha * jv[j];
    t2 += w2 * u * u;
    tb += w2 * u * jv[j];  // derivative of T^2/2 at alpha
    tc += w2 * jv[j] * jv[j];
  }
  const double t = std::sqrt(t2);
  if (n >= mu * t || (t <= 0 && n >= 0)) return;  // top zone: no cost
  if (mu * n + t <= 0 || (t <= 0 && n < 0)) {     // bottom zone: quadratic rows
    for (int j = 0; j < dim; ++j) {
      double c[3];
      quadratic_terms(in, first + j, c);
      add_terms(q, c, Piece::kQuadratic);
    }
    return;
  }
  const double dm = p.D[first] / (mu * mu * (1 + mu * mu));
  const double t1 = tb / t;
  const double tt = (tc - t1 * t1) / t;
  const double nmt = n - mu * t;
  const double slope = n1 - mu * t1;
  point.cost += 0.5 * dm * nmt * nmt;
  point.d1 += dm * nmt * slope;
  point.d2 += dm * (slope * slope - nmt * mu * tt);
}

// Row i's piece at jar, as row_terms chooses it.
[[gnu::always_inline]] inline Piece row_piece(const ConstraintProblem& p, int i, double jar) {
  switch (p.type[i]) {
    case RowType::kEquality:
      return Piece::kQuadratic;
    case RowType::kFrictionDof:
    case RowType::kFrictionTendon: {
      const double bound = p.R[i] * p.frictionloss[i];
      if (jar <= -bound) return Piece::kLinearNeg;
      if (jar >= bound) return Piece::kLinearPos;
      return Piece::kQuadratic;
    }
    default:
      return jar < 0 ? Piece::kQuadratic : Piece::kZero;
  }
}

// Row i's piece at alpha (a row outside elliptic cones) and the
// coefficients of its cost c[0] + c[1] alpha + c[2] alpha^2, none for the
// zero piece: quadratic_terms, or Huber's linear pieces beyond
// |jar| = R fl, -0.5 R fl^2 -+ fl (jar + alpha jv). They are computed where
// they are used: a search visits most rows two or three times and adds few
// of them, and keeping them stored cost a pass and 24 bytes a row.
[[gnu::always_inline]] inline Piece row_terms(const LineSearchInput& in, int i, double alpha,
                                              double* c) {
  const ConstraintProblem& p = *in.problem;
  const double jar0 = in.jar[i], jv = in.jv[i];
  const double jar = jar0 + alpha * jv;
  switch (p.type[i]) {
    case RowType::kEquality:
      break;
    case RowType::kFrictionDof:
    case RowType::kFrictionTendon: {
      const double fl = p.frictionloss[i], bound = p.R[i] * fl;
      if (jar <= -bound) {
        c[0] = -0.5 * bound * fl - fl * jar0;
        c[1] = -fl * jv;
        return Piece::kLinearNeg;
      }
      if (jar >= bound) {
        c[0] = -0.5 * bound * fl + fl * jar0;
        c[1] = fl * jv;
        return Piece::kLinearPos;
      }
      break;
    }
    default:
      if (jar >= 0) return Piece::kZero;
  }
  quadratic_terms(in, i, c);
  return Piece::kQuadratic;
}

// Adds row i at alpha to the 1-D function: its piece's coefficients to q,
// an elliptic cone's middle zone to point. Returns the rows it covered (a
// cone's dim from its first row).
[[gnu::always_inline]] inline int add_row(const LineSearchInput& in, int i, double alpha, double* q,
                                          LinePoint& point) {
  const ConstraintProblem& p = *in.problem;
  if (p.type[i] == RowType::kContactElliptic) {
    const ConeGroup& cone = p.cones[p.cone_of_row[i]];
    add_cone(in, cone, alpha, q, point);
    return cone.dim;
  }
  double c[3] = {0, 0, 0};
  add_terms(q, c, row_terms(in, i, alpha, c));
  return 1;
}

// Adds the summed quadratic pieces q to point, as evaluate_line ends.
LinePoint finish_point(LinePoint point, const double* q) {
  const double alpha = point.alpha;
  point.cost += q[0] + alpha * (q[1] + alpha * q[2]);
  point.d1 += q[1] + 2 * alpha * q[2];
  point.d2 += 2 * q[2];
  if (point.d2 <= 0) point.d2 = kMinCurvature;
  return point;
}

// Chunks' tasks: on the parallel loop when `rows` (the rows they visit)
// are enough to pay for it, else here; the results are the same.
constexpr int kParallelRows = 4096;

// The 1-D function at alpha summed chunk by chunk: body(c, q, point) sets
// chunk c's quadratic pieces q (chunk 0's starting from the Gauss term or
// the fixed rows' sum) and adds its cones' middle zones to point. Large
// problems are evaluated chunk by chunk (on the problem's parallel loop)
// and the parts summed in chunk order, the same sums on any number of
// threads; a problem of one chunk sums row by row as it always has, in
// locals the compiler keeps in registers.
template <class Body>
LinePoint sum_chunks(const ConstraintProblem& p, int chunks, int rows, double alpha, Body&& body) {
  LinePoint point;
  point.alpha = alpha;
  double q[3];
  if (chunks == 1) {
    body(0, q, point);
    return finish_point(point, q);
  }
  struct ChunkSum {
    double q[3];
    double cost, d1, d2;
  };
  ChunkSum sums[kMaxRowChunks];
  parallel_for(rows >= kParallelRows ? p.parallel : nullptr, chunks, [&](int c, int) {
    LinePoint part;
    double chunk_q[3];
    body(c, chunk_q, part);
    ChunkSum& sum = sums[c];
    std::copy_n(chunk_q, 3, sum.q);
    sum.cost = part.cost;
    sum.d1 = part.d1;
    sum.d2 = part.d2;
  });
  std::copy_n(sums[0].q, 3, q);
  point.cost = sums[0].cost;
  point.d1 = sums[0].d1;
  point.d2 = sums[0].d2;
  for (int c = 1; c < chunks; ++c) {
    for (int k = 0; k < 3; ++k) q[k] += sums[c].q[k];
    point.cost += sums[c].cost;
    point.d1 += sums[c].d1;
    point.d2 += sums[c].d2;
  }
  return finish_point(point, q);
}

// Where the search may still go: the interval [lo, hi] of alpha (hi may be
// +inf). A row whose piece is the same at both ends keeps it inside
// (jar + alpha jv is monotone in alpha, rounded too), so its piece is summed
// once into its chunk's `fixed` (with the Gauss term in chunk 0) and the
// evaluations inside the window visit only the `live` rows. Elliptic cones
// stay live. This is what keeps the search cheap in large scenes: of a
// thousand-box pile's 21 000 rows, about half can change piece somewhere
// along alpha >= 0, and a few hundred inside a bracket. Chunk c's live rows
// are listed from live[begin_[c]] (a chunk's live rows are among its own).
class LineWindow {
 public:
  explicit LineWindow(const LineSearchInput& in) : in_(in), chunks_(row_chunks(in.problem->nefc)) {
    for (int c = 0; c <= chunks_; ++c) begin_[c] = chunk_begin(*in.problem, c, chunks_);
  }

  bool contains(double alpha) const { return narrowed_ && lo_ <= alpha && alpha <= hi_; }

  // Moves the window to [lo, hi]: from the live rows when it shrinks, from
  // every row when it does not (a round-off step out of a bracket).
  void narrow(double lo, double hi) {
    if (!(std::isfinite(lo) && lo <= hi && !std::isnan(hi))) return;  // evaluations stay full
    if (narrowed_ && lo == lo_ && hi == hi_) return;
    const bool inside = narrowed_ && lo_ <= lo && hi <= hi_;
    lo_ = lo;
    hi_ = hi;
    const int rows = inside ? live_rows() : in_.problem->nefc;
    const auto narrow_chunk = [&](int c) __attribute__((always_inline)) {
      int* live = in_.live + begin_[c];
      int kept = 0;
      if (inside) {
        for (int j = 0; j < live_count_[c]; ++j) keep_or_fix(c, live[j], live, kept);
      } else {
        start_fixed(c);
        for (int i = begin_[c]; i < begin_[c + 1];) i += keep_or_fix(c, i, live, kept);
      }
      live_count_[c] = kept;
    };
    if (chunks_ == 1) {
      narrow_chunk(0);
    } else {
      parallel_for(rows >= kParallelRows ? in_.problem->parallel : nullptr, chunks_,
                   [&](int c, int) { narrow_chunk(c); });
    }
    narrowed_ = true;
  }

  // The function at alpha over every row, as evaluate_line, while the
  // window becomes [alpha, +inf): the first evaluation of a search also
  // sets up the window for the steps that follow it.
  LinePoint evaluate_and_open(double alpha) {
    lo_ = alpha;
    hi_ = std::numeric_limits<double>::infinity();
    const ConstraintProblem& p = *in_.problem;
    const LinePoint point = sum_chunks(
        p, chunks_, p.nefc,
        alpha, [&](int c, double* q, LinePoint& part) __attribute__((always_inline)) {
          start_fixed(c);
          for (int k = 0; k < 3; ++k) q[k] = c == 0 ? in_.gauss[k] : 0;
          int* live = in_.live + begin_[c];
          int kept = 0;
          for (int i = begin_[c]; i < begin_[c + 1];) {
            if (p.type[i] == RowType::kContactElliptic) {
              live[kept++] = i;
              i += add_row(in_, i, alpha, q, part);
              continue;
            }
            double row[3] = {0, 0, 0};
            const Piece piece = row_terms(in_, i, alpha, row);
            add_terms(q, row, piece);
            fix_or_keep(c, i, piece, row, live, kept);
            ++i;
          }
          live_count_[c] = kept;
        });
    narrowed_ = true;
    return point;
  }

  // The 1-D function at alpha inside the window.
  LinePoint evaluate(double alpha) const {
    return sum_chunks(
        *in_.problem, chunks_, live_rows(),
        alpha, [&](int c, double* q, LinePoint& part) __attribute__((always_inline)) {
          std::copy_n(fixed_[c], 3, q);
          const int* live = in_.live + begin_[c];
          const int count = live_count_[c];
          for (int j = 0; j < count; ++j) add_row(in_, live[j], alpha, q, part);
        });
  }

 private:
  int live_rows() const {
    int rows = 0;
    for (int c = 0; c < chunks_; ++c) rows += live_count_[c];
    return rows;
  }

  void start_fixed(int c) {
    for (int k = 0; k < 3; ++k) fixed_[c][k] = c == 0 ? in_.gauss[k] : 0;
  }

  // Row i's piece at the window's upper end (as alpha grows without bound
  // when it is +inf).
  [[gnu::always_inline]] Piece piece_at_hi(int i, double jar, double jv) const {
    const ConstraintProblem& p = *in_.problem;
    if (hi_ < std::numeric_limits<double>::infinity()) return row_piece(p, i, jar + hi_ * jv);
    if (jv == 0) return row_piece(p, i, jar + lo_ * jv);
    return row_piece(p, i, jv > 0 ? hi_ : -hi_);
  }

  // Row i (outside cones) of chunk c, of piece `piece` and coefficients
  // `row` at lo_: added to the chunk's fixed_ when it keeps that piece up to hi_,
  // else listed live.
  [[gnu::always_inline]] void fix_or_keep(int c, int i, Piece piece, const double* row, int* live,
                                          int& kept) {
    if (piece == piece_at_hi(i, in_.jar[i], in_.jv[i])) {
      add_terms(fixed_[c], row, piece);
    } else {
      live[kept++] = i;
    }
  }

  // Keeps row i of chunk c live or adds its piece to fixed_; returns its
  // rows.
  [[gnu::always_inline]] int keep_or_fix(int c, int i, int* live, int& kept) {
    const ConstraintProblem& p = *in_.problem;
    if (p.type[i] == RowType::kContactElliptic) {
      live[kept++] = i;
      return p.cones[p.cone_of_row[i]].dim;
    }
    double row[3] = {0, 0, 0};
    fix_or_keep(c, i, row_terms(in_, i, lo_, row), row, live, kept);
    return 1;
  }

  const LineSearchInput& in_;
  const int chunks_;
  int begin_[kMaxRowChunks + 1];
  double lo_ = 0, hi_ = 0;
  // Set for every chunk by the full passes (evaluate_and_open, narrow)
  // before any read: left uninitialised, as a search on a small problem
  // would otherwise clear them all each time.
  double fixed_[kMaxRowChunks][3];
  bool narrowed_ = false;
  int live_count_[kMaxRowChunks];
};

}  // namespace

LinePoint evaluate_line(const LineSearchInput& in, double alpha) {
  const ConstraintProblem& p = *in.problem;
  // The quadratic pieces are summed into one quadratic first and evaluated
  // once, so at the minimum of a quadratic piece the derivative cancels to
  // round-off of the coefficients (not of every row's own derivative).
  const int chunks = row_chunks(p.nefc);
  return sum_chunks(
      p, chunks, p.nefc,
      alpha, [&](int c, double* q, LinePoint& part) __attribute__((always_inline)) {
        for (int k = 0; k < 3; ++k) q[k] = c == 0 ? in.gauss[k] : 0;
        const int end = chunk_begin(p, c + 1, chunks);
        for (int i = chunk_begin(p, c, chunks); i < end;) i += add_row(in, i, alpha, q, part);
      });
}

LineSearchResult exact_line_search(const LineSearchInput& in) {
  const ConstraintProblem& p = *in.problem;
  LineSearchResult result;
  if (in.search_norm < 1e-15) return result;
  const double gtol = p.tolerance * p.ls_tolerance * in.search_norm / p.scale;
  const int budget = p.ls_iterations;
  int& count = result.evaluations;
  LineWindow window(in);
  const bool windowed = in.live != nullptr;
  auto narrow = [&](double a, double b) {
    if (windowed) window.narrow(std::min(a, b), std::max(a, b));
  };
  auto eval = [&](double alpha) {
    ++count;
    return window.contains(alpha) ? window.evaluate(alpha) : evaluate_line(in, alpha);
  };
  // The first evaluation opens the window [0, +inf): a descent direction's
  // steps all lie in it.
  auto eval_start = [&] {
    ++count;
    return windowed ? window.evaluate_and_open(0) : evaluate_line(in, 0);
  };
  auto newton = [&](const LinePoint& x) { return eval(x.alpha - x.d1 / x.d2); };
  auto converged = [gtol](const LinePoint& x) { return std::abs(x.d1) < gtol; };
  auto finish = [&](const LinePoint& x) {
    result.alpha = x.alpha;
    result.cost = x.cost;
    return result;
  };

  // One Newton step from alpha = 0 is always tried, and kept when it does
  // not raise the cost; when its slope is within the tolerance it is the
  // answer (alpha = 0, no step, when the step raised the cost).
  const LinePoint start = eval_start();
  result.cost = start.cost;
  LinePoint x = newton(start);
  if (start.cost < x.cost) x = start;
  if (converged(x)) return finish(x);

  // One-sided phase: Newton steps in the direction of descent while the
  // slope keeps its sign; `last` is the point before.
  const double dir = x.d1 < 0 ? 1 : -1;
  LinePoint last;
  bool moved = false;
  while (x.d1 * dir <= -gtol && count < budget) {
    last = x;
    moved = true;
    x = newton(x);
    if (converged(x)) return finish(x);
  }
  if (count >= budget || !moved) return finish(x);

  // Bracketed phase between x and last (slopes of opposite signs). Each
  // round adds the midpoint to the candidates (x's Newton step, and at
  // first x itself for last), returns the cheapest candidate within the
  // tolerance, else moves each end to the candidate of its sign with the
  // smallest |slope| and takes the Newton step from it; when neither end
  // moves, double precision is exhausted and the midpoint is the answer.
  // The evaluations of this phase visit only the rows that can change piece
  // between the ends; a Newton step out of the bracket visits every row.
  narrow(x.alpha, last.alpha);
  LinePoint x_next = newton(x), last_next = x;
  auto update = [&](LinePoint& end, LinePoint& next, const LinePoint(&candidates)[3]) {
    bool updated = false;
    for (const LinePoint& y : candidates) {
      if ((end.d1 < 0 && y.d1 < 0 && end.d1 < y.d1) || (end.d1 > 0 && y.d1 > 0 && end.d1 > y.d1)) {
        end = y;
        updated = true;
      }
    }
    if (updated) next = newton(end);
    return updated;
  };
  while (count < budget) {
    narrow(x.alpha, last.alpha);
    const LinePoint mid = eval(0.5 * (x.alpha + last.alpha));
    const LinePoint candidates[3] = {x_next, last_next, mid};
    const LinePoint* best = nullptr;
    for (const LinePoint& y : candidates) {
      if (converged(y) && (best == nullptr || y.cost < best->cost)) best = &y;
    }
    if (best != nullptr) return finish(*best);
    const bool moved_x = update(x, x_next, candidates);
    const bool moved_last = update(last, last_next, candidates);
    if (!moved_x && !moved_last) return finish(mid);
  }
  // Out of evaluations: the cheaper end if it beats alpha = 0.
  if (x.cost <= last.cost && x.cost < start.cost) return finish(x);
  if (last.cost <= x.cost && last.cost < start.cost) return finish(last);
  return result;
}

}  // namespace pliant
