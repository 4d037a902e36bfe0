/* Conjugate gradient on the 5-point Poisson matrix of an N x N grid (N^2 unknowns), rows of the
 * grid distributed in blocks of N / P grid rows (1D row distribution). The matrix-vector product
 * needs the neighbours' boundary grid rows: two exchanges of N doubles per product, with
 * MPI_Sendrecv inside the chain and MPI_Send / MPI_Recv at its two ends (no MPI_PROC_NULL: SMPI
 * 3.32 does not trace a Sendrecv whose source or destination is MPI_PROC_NULL). Each iteration
 * then sums two dot products with MPI_Allreduce (1 double each).
 *
 * Usage: cg N ITERATIONS        (N divisible by the rank count, at least 2 ranks)
 * The rank count is smpirun's -np. Deterministic: a fixed number of iterations (the residual is
 * printed, never tested), fixed right-hand side, no wildcard receive.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* Tag 0 for both shifts: the trace of a MPI_Sendrecv keeps no tag and SMPI's replay sends and
 * receives it with tag 0, so the ends' MPI_Send / MPI_Recv must use tag 0 to match it on replay.
 * One tag is safe here: between two ranks each direction carries one kind of message. */
enum { TAG_HALO = 0 };

typedef struct {
  int n;    /* grid side: a grid row holds n unknowns */
  int rows; /* grid rows owned by this rank */
  int rank, size;
  double* halo; /* (rows + 2) * n: p with one ghost grid row above and below */
} Stencil;

static long parse_positive(const char* text, const char* what, int rank) {
  char* end = NULL;
  long value = strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || value <= 0) {
    if (rank == 0) fprintf(stderr, "cg: %s must be a positive integer, not '%s'\n", what, text);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return value;
}

/* Fills the ghost rows of s->halo from the ranks above (rank - 1) and below (rank + 1). */
static void exchange_ghost_rows(Stencil* s, MPI_Comm comm) {
  int n = s->n;
  double* first = s->halo + n;                  /* my first grid row */
  double* last = s->halo + (size_t)s->rows * n; /* my last grid row */
  double* ghost_up = s->halo;
  double* ghost_down = s->halo + (size_t)(s->rows + 1) * n;
  /* Upward shift: my first row goes to rank - 1, rank + 1's first row comes to me. */
  if (s->rank == 0)
    MPI_Recv(ghost_down, n, MPI_DOUBLE, 1, TAG_HALO, comm, MPI_STATUS_IGNORE);
  else if (s->rank == s->size - 1)
    MPI_Send(first, n, MPI_DOUBLE, s->rank - 1, TAG_HALO, comm);
  else
    MPI_Sendrecv(first, n, MPI_DOUBLE, s->rank - 1, TAG_HALO, ghost_down, n, MPI_DOUBLE, s->rank + 1, TAG_HALO, comm,
                 MPI_STATUS_IGNORE);
  /* Downward shift: my last row goes to rank + 1, rank - 1's last row comes to me. */
  if (s->rank == s->size - 1)
    MPI_Recv(ghost_up, n, MPI_DOUBLE, s->rank - 1, TAG_HALO, comm, MPI_STATUS_IGNORE);
  else if (s->rank == 0)
    MPI_Send(last, n, MPI_DOUBLE, 1, TAG_HALO, comm);
  else
    MPI_Sendrecv(last, n, MPI_DOUBLE, s->rank + 1, TAG_HALO, ghost_up, n, MPI_DOUBLE, s->rank - 1, TAG_HALO, comm,
                 MPI_STATUS_IGNORE);
}

/* q = A p for the 5-point Laplacian (4 on the diagonal, -1 to the four neighbours, zero
 * Dirichlet boundary); p is in s->halo (ghost rows filled). */
static void apply_matrix(const Stencil* s, double* q) {
  int n = s->n;
  for (int i = 1; i <= s->rows; i++) {
    int global_row = (s->rank * s->rows) + i - 1;
    for (int j = 0; j < n; j++) {
      const double* c = s->halo + (size_t)i * n + j;
      double v = 4.0 * c[0];
      if (j > 0) v -= c[-1];
      if (j < n - 1) v -= c[1];
      if (global_row > 0) v -= c[-n];
      if (global_row < n - 1) v -= c[n];
      q[(size_t)(i - 1) * n + j] = v;
    }
  }
}

static double local_dot(const double* a, const double* b, size_t len) {
  double sum = 0.0;
  for (size_t i = 0; i < len; i++) sum += a[i] * b[i];
  return sum;
}

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  Stencil s;
  MPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &s.size);
  if (argc != 3) {
    if (s.rank == 0) fprintf(stderr, "usage: cg N ITERATIONS\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  s.n = (int)parse_positive(argv[1], "N", s.rank);
  int iterations = (int)parse_positive(argv[2], "ITERATIONS", s.rank);
  if (s.size < 2 || s.n % s.size != 0) {
    if (s.rank == 0) fprintf(stderr, "cg: needs at least 2 ranks dividing N=%d (got %d ranks)\n", s.n, s.size);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  s.rows = s.n / s.size;
  size_t len = (size_t)s.rows * s.n;
  s.halo = calloc(len + 2 * (size_t)s.n, sizeof(double));
  double* p = s.halo + s.n; /* p lives inside the halo array: no copy before each product */
  double* x = calloc(len, sizeof(double));
  double* r = malloc(len * sizeof(double));
  double* q = malloc(len * sizeof(double));

  /* b = 1 everywhere, x0 = 0: r0 = p0 = b. */
  for (size_t i = 0; i < len; i++) r[i] = p[i] = 1.0;
  double rr_local = local_dot(r, r, len), rr;
  MPI_Allreduce(&rr_local, &rr, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);

  for (int it = 1; it <= iterations; it++) {
    exchange_ghost_rows(&s, MPI_COMM_WORLD);
    apply_matrix(&s, q);
    double pq_local = local_dot(p, q, len), pq;
    MPI_Allreduce(&pq_local, &pq, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double alpha = rr / pq;
    for (size_t i = 0; i < len; i++) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    double rr_new_local = local_dot(r, r, len), rr_new;
    MPI_Allreduce(&rr_new_local, &rr_new, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double beta = rr_new / rr;
    rr = rr_new;
    for (size_t i = 0; i < len; i++) p[i] = r[i] + beta * p[i];
  }
  if (s.rank == 0) printf("cg: %d iterations, residual norm^2 %.6e\n", iterations, rr);

  free(s.halo);
  free(x);
  free(r);
  free(q);
  MPI_Finalize();
  return 0;
}
