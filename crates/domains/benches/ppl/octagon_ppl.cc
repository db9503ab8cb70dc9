// PPL's half of the same-run, same-instance octagon comparison: times
// Parma_Polyhedra_Library::Octagonal_Shape<T> (T = double or mpz_class) on the
// instances that `octagon_vs_ppl write` produced, with the same protocol and
// the same TSV output as `octagon_vs_ppl time` (see
// crates/domains/examples/octagon_vs_ppl.rs for the file format, the timing
// protocol and the canonical result strings). Built and run by
// scripts/bench-octagon-ppl.sh:
//
//   g++ -O2 -std=c++17 octagon_ppl.cc -lppl -lgmpxx -lgmp
//   ./octagon_ppl double|mpz INSTANCES
//
// Each cell uses PPL's public API the way an analyzer would: closure is
// `is_empty()` (which strongly closes the shape), join `upper_bound_assign`,
// widening `CC76_extrapolation_assign` without stop points (the standard
// octagon widening),
// inclusion `contains`, "assign then close" `affine_image` then `is_empty()`,
// "guard then close" `add_constraint` then `is_empty()`.

#include <ppl.hh>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace PPL = Parma_Polyhedra_Library;
using Clock = std::chrono::steady_clock;

namespace {

volatile bool sink;

// Minimum wall time per cell and minimum number of batches (as in the Rust side).
const auto kBudget = std::chrono::milliseconds(300);
const size_t kMinBatches = 15;

// The DBM cell m[i][j] = c, which bounds V_j - V_i (V_2k = x_k, V_2k+1 = -x_k).
struct Cell {
  size_t i, j;
  long c;
};

struct Instance {
  std::string kind;
  size_t n = 0;
  std::vector<Cell> a, b;
  long guard[3] = {0, 0, 0};   // x_V - x_W <= C
  long assign[3] = {0, 0, 0};  // x_X := x_Y + C
};

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "octagon_ppl: %s\n", what.c_str());
  std::exit(1);
}

// Reads the next non-comment line, which must start with `word`; returns the numbers after it.
std::vector<long> field(std::istream& in, const char* word) {
  std::string line;
  do {
    if (!std::getline(in, line)) fail(std::string("instance file ends before `") + word + "`");
  } while (!line.empty() && line[0] == '#');
  std::istringstream words(line);
  std::string head;
  words >> head;
  if (head != word) fail(std::string("expected `") + word + "`, got: " + line.substr(0, 40));
  std::vector<long> out;
  long v;
  while (words >> v) out.push_back(v);
  return out;
}

std::vector<Instance> parse(const char* file) {
  std::ifstream in(file);
  if (!in) fail(std::string("cannot read ") + file);
  std::vector<Instance> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    Instance inst;
    std::istringstream head(line);
    std::string word;
    if (!(head >> word >> inst.kind >> inst.n) || word != "instance") fail("expected `instance KIND N`");
    for (auto* cells : {&inst.a, &inst.b}) {
      std::vector<long> v = field(in, cells == &inst.a ? "a" : "b");
      if (v.size() % 3 != 0) fail("cells come in triples");
      for (size_t k = 0; k < v.size(); k += 3) cells->push_back({size_t(v[k]), size_t(v[k + 1]), v[k + 2]});
    }
    for (auto [word, dst] : {std::pair<const char*, long*>{"guard", inst.guard}, {"assign", inst.assign}}) {
      std::vector<long> v = field(in, word);
      if (v.size() != 3) fail(std::string("`") + word + "` needs three numbers");
      std::copy(v.begin(), v.end(), dst);
    }
    field(in, "end");
    out.push_back(inst);
  }
  return out;
}

// The signed variable V_k: +x_{k/2} for even k, -x_{k/2} for odd k.
PPL::Linear_Expression signed_var(size_t k) {
  PPL::Linear_Expression e(PPL::Variable(k / 2));
  return k % 2 == 0 ? e : -e;
}

template <typename T>
PPL::Octagonal_Shape<T> build(size_t n, const std::vector<Cell>& cells) {
  PPL::Octagonal_Shape<T> s(n, PPL::UNIVERSE);
  for (const Cell& c : cells) s.add_constraint(signed_var(c.j) - signed_var(c.i) <= PPL::Coefficient(c.c));
  return s;
}

// The finite half-matrix cells (i, j) -> c of the tight closure of `r`;
// false if `r` is empty. PPL's tight closure is private, so we reach it with
// the public API on an exact rational copy: strong closure, then floor every
// bound and make unary bounds even, until nothing changes.
using Cells = std::map<std::pair<size_t, size_t>, mpq_class>;
template <typename T>
bool tight_cells(const PPL::Octagonal_Shape<T>& r, Cells& cells) {
  if (r.is_empty()) return false;
  const size_t n = r.space_dimension();
  PPL::Octagonal_Shape<mpq_class> q(n, PPL::UNIVERSE);
  q.add_constraints(r.constraints());
  for (int round = 0;; ++round) {
    if (q.is_empty()) return false;
    if (round == 1000) fail("tight closure does not stabilize");
    PPL::Octagonal_Shape<mpq_class> before = q;
    q.drop_some_non_integer_points();
    if (q == before) break;
  }
  // a1 x + a2 y + t >= 0, i.e. -a1 x - a2 y <= t, as the stored cell it bounds.
  auto put = [&](const std::vector<std::pair<size_t, mpz_class>>& terms, const mpz_class& t) {
    auto sv = [](size_t k, const mpz_class& a) { return 2 * k + (a > 0 ? 1 : 0); };  // V of -a·x_k
    size_t i, j;
    mpq_class bound;
    mpz_class scale = abs(terms[0].second);
    if (terms.size() == 1) {
      size_t p = sv(terms[0].first, terms[0].second);
      i = p ^ 1, j = p, bound = mpq_class(2 * t, scale);
    } else {
      if (terms.size() != 2 || abs(terms[1].second) != scale) fail("not an octagonal constraint");
      size_t p = sv(terms[0].first, terms[0].second), q2 = sv(terms[1].first, terms[1].second);
      i = q2 ^ 1, j = p, bound = mpq_class(t, scale);
    }
    bound.canonicalize();
    if (j > (i | 1)) std::tie(i, j) = std::make_pair(j ^ 1, i ^ 1);
    auto it = cells.find({i, j});
    if (it == cells.end() || bound < it->second) cells[{i, j}] = bound;
  };
  for (const PPL::Constraint& c : q.constraints()) {
    std::vector<std::pair<size_t, mpz_class>> terms, negated;
    for (size_t k = 0; k < n; ++k) {
      mpz_class a(c.coefficient(PPL::Variable(k)));
      if (a != 0) terms.push_back({k, a}), negated.push_back({k, -a});
    }
    mpz_class t(c.inhomogeneous_term());
    if (terms.empty()) continue;
    put(terms, t);
    if (c.is_equality()) put(negated, -t);
  }
  return true;
}

// The canonical result string (see octagon_vs_ppl.rs): the tight closure of
// `r` as its finite half-matrix cells `i,j:c`, or `empty`.
template <typename T>
std::string canonical(const PPL::Octagonal_Shape<T>& r) {
  Cells cells;
  if (!tight_cells(r, cells)) return "empty";
  std::string out;
  for (const auto& [ij, c] : cells) {
    if (!out.empty()) out += ' ';
    out += std::to_string(ij.first) + "," + std::to_string(ij.second) + ":" + c.get_str();
  }
  return out;
}

// The tight closure of `r` as a (strongly closed) shape over T: the closed
// inputs of join, widening, inclusion, assign and guard are then the very
// matrices our side works on (PPL's own public closure is only the rational
// strong closure, whose join can be less precise over the integers).
template <typename T>
PPL::Octagonal_Shape<T> tight(const PPL::Octagonal_Shape<T>& r) {
  Cells cells;
  if (!tight_cells(r, cells)) fail("an instance octagon is empty");
  std::vector<Cell> flat;
  for (const auto& [ij, c] : cells) flat.push_back({ij.first, ij.second, c.get_num().get_si()});
  PPL::Octagonal_Shape<T> s = build<T>(r.space_dimension(), flat);
  sink = s.is_empty();  // marks it strongly closed (nothing left to tighten)
  return s;
}

// µs per operation in the fastest batch of `k` runs of `op` on fresh inputs.
template <typename Input, typename Fresh, typename Op>
double fastest_us(size_t k, Fresh fresh, Op op) {
  const auto start = Clock::now();
  std::vector<double> per_op;
  while (per_op.size() < kMinBatches || Clock::now() - start < kBudget) {
    std::vector<Input> inputs;
    inputs.reserve(k);
    for (size_t r = 0; r < k; ++r) inputs.push_back(fresh());
    const auto t = Clock::now();
    for (Input& x : inputs) op(x);
    per_op.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t).count() / double(k));
  }
  return *std::min_element(per_op.begin(), per_op.end());
}

template <typename T>
void run(const std::vector<Instance>& instances) {
  using OS = PPL::Octagonal_Shape<T>;
  const T* const no_stops = nullptr;
  for (const Instance& p : instances) {
    const size_t k = std::max<size_t>(1, 4096 / (p.n * p.n));
    const OS a = build<T>(p.n, p.a);  // left open: the closure cells close copies of it
    const OS ac = tight(build<T>(p.n, p.a)), bc = tight(build<T>(p.n, p.b));
    OS joined = ac;
    joined.upper_bound_assign(bc);
    sink = joined.is_empty();
    const PPL::Variable x(p.assign[0]), y(p.assign[1]);
    const PPL::Linear_Expression rhs = y + PPL::Coefficient(p.assign[2]);
    const PPL::Constraint guard =
        PPL::Variable(p.guard[0]) - PPL::Variable(p.guard[1]) <= PPL::Coefficient(p.guard[2]);
    auto report = [&](const char* op, double us, const std::string& result) {
      std::printf("%s\t%s\t%zu\t%.4f\t%s\n", op, p.kind.c_str(), p.n, us, result.c_str());
    };
    auto copy = [](const OS& s) { return [p = &s] { return *p; }; };
    auto nothing = [] { return 0; };

    report("closure", fastest_us<OS>(k, copy(a), [](OS& s) { sink = s.is_empty(); }), canonical(ac));
    report("join", fastest_us<OS>(k, copy(ac), [&](OS& s) { s.upper_bound_assign(bc); }), canonical(joined));
    // The overload with a range of stop points, given an empty range: the
    // plain standard widening (the short overload widens to PPL's default
    // stop points -2..2 first).
    auto widen = [&](OS& s) { s.CC76_extrapolation_assign(ac, no_stops, no_stops); };
    OS widened = joined;
    widen(widened);
    report("widening", fastest_us<OS>(k, copy(joined), widen), canonical(widened));
    report("inclusion", fastest_us<int>(k, nothing, [&](int&) { sink = joined.contains(ac); }),
           joined.contains(ac) ? "true" : "false");
    auto assign = [&](OS& s) {
      s.affine_image(x, rhs);
      sink = s.is_empty();
    };
    OS assigned = ac;
    assign(assigned);
    report("assign_then_close", fastest_us<OS>(k, copy(ac), assign), canonical(assigned));
    auto refine = [&](OS& s) {
      s.add_constraint(guard);
      sink = s.is_empty();
    };
    OS guarded = ac;
    refine(guarded);
    report("guard_then_close", fastest_us<OS>(k, copy(ac), refine), canonical(guarded));
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) fail("usage: octagon_ppl double|mpz INSTANCES");
  const std::vector<Instance> instances = parse(argv[2]);
  if (std::strcmp(argv[1], "double") == 0) {
    run<double>(instances);
  } else if (std::strcmp(argv[1], "mpz") == 0) {
    run<mpz_class>(instances);
  } else {
    fail("the coefficient type is `double` or `mpz`");
  }
  return 0;
}
