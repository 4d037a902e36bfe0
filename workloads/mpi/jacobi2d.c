/* 2D Jacobi relaxation of the Laplace equation on an N x N grid, distributed over a PX x PY
 * process grid (MPI_Dims_create: 16 ranks give 4 x 4). Each iteration exchanges one-cell halos
 * with the (up to) four neighbours: MPI_Irecv x4, MPI_Isend x4, one MPI_Waitall; then updates
 * the block. Every K iterations the squared residual is summed with MPI_Allreduce (1 double).
 *
 * Usage: jacobi2d N ITERATIONS K        (N divisible by PX and PY)
 * The rank count is smpirun's -np. Deterministic: fixed iteration count, fixed boundary values,
 * no wildcard receive; the convergence test only prints, it never stops the loop early.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { TAG_HALO = 10 };

typedef struct {
  int nx, ny;                      /* interior cells of this rank's block */
  int up, down, left, right;       /* neighbour ranks or MPI_PROC_NULL */
  double *u, *unew;                /* (nx + 2) x (ny + 2), row-major, halo included */
  double *sendbuf[2], *recvbuf[2]; /* packed left/right columns */
} Block;

#define AT(b, a, i, j) ((a)[(size_t)(i) * ((b)->ny + 2) + (j)])

static long parse_positive(const char* text, const char* what, int rank) {
  char* end = NULL;
  long value = strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || value <= 0) {
    if (rank == 0) fprintf(stderr, "jacobi2d: %s must be a positive integer, not '%s'\n", what, text);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return value;
}

/* Fixed Dirichlet values on the global boundary, zero inside: the same on every run. */
static void init_block(Block* b, int row0, int col0, int n) {
  for (int i = 0; i < b->nx + 2; i++)
    for (int j = 0; j < b->ny + 2; j++) {
      int gi = row0 + i - 1, gj = col0 + j - 1;
      double v = 0.0;
      if (gi < 0)
        v = 1.0;
      else if (gj < 0)
        v = 0.5 * (double)gi / n;
      AT(b, b->u, i, j) = v;
      AT(b, b->unew, i, j) = v;
    }
}

/* Posts the four halo receives and sends (rows are contiguous, columns are packed). */
static void exchange_halos(Block* b, MPI_Comm comm) {
  MPI_Request req[8];
  int n = 0;
  int rowlen = b->ny;
  if (b->up != MPI_PROC_NULL) MPI_Irecv(&AT(b, b->u, 0, 1), rowlen, MPI_DOUBLE, b->up, TAG_HALO, comm, &req[n++]);
  if (b->down != MPI_PROC_NULL)
    MPI_Irecv(&AT(b, b->u, b->nx + 1, 1), rowlen, MPI_DOUBLE, b->down, TAG_HALO, comm, &req[n++]);
  if (b->left != MPI_PROC_NULL) MPI_Irecv(b->recvbuf[0], b->nx, MPI_DOUBLE, b->left, TAG_HALO, comm, &req[n++]);
  if (b->right != MPI_PROC_NULL) MPI_Irecv(b->recvbuf[1], b->nx, MPI_DOUBLE, b->right, TAG_HALO, comm, &req[n++]);
  for (int i = 0; i < b->nx; i++) {
    b->sendbuf[0][i] = AT(b, b->u, i + 1, 1);
    b->sendbuf[1][i] = AT(b, b->u, i + 1, b->ny);
  }
  if (b->up != MPI_PROC_NULL) MPI_Isend(&AT(b, b->u, 1, 1), rowlen, MPI_DOUBLE, b->up, TAG_HALO, comm, &req[n++]);
  if (b->down != MPI_PROC_NULL)
    MPI_Isend(&AT(b, b->u, b->nx, 1), rowlen, MPI_DOUBLE, b->down, TAG_HALO, comm, &req[n++]);
  if (b->left != MPI_PROC_NULL) MPI_Isend(b->sendbuf[0], b->nx, MPI_DOUBLE, b->left, TAG_HALO, comm, &req[n++]);
  if (b->right != MPI_PROC_NULL) MPI_Isend(b->sendbuf[1], b->nx, MPI_DOUBLE, b->right, TAG_HALO, comm, &req[n++]);
  MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
  for (int i = 0; i < b->nx; i++) {
    if (b->left != MPI_PROC_NULL) AT(b, b->u, i + 1, 0) = b->recvbuf[0][i];
    if (b->right != MPI_PROC_NULL) AT(b, b->u, i + 1, b->ny + 1) = b->recvbuf[1][i];
  }
}

/* One Jacobi sweep over the interior; returns the local squared residual. */
static double sweep(Block* b) {
  double res = 0.0;
  for (int i = 1; i <= b->nx; i++)
    for (int j = 1; j <= b->ny; j++) {
      double v = 0.25 * (AT(b, b->u, i - 1, j) + AT(b, b->u, i + 1, j) + AT(b, b->u, i, j - 1) + AT(b, b->u, i, j + 1));
      double d = v - AT(b, b->u, i, j);
      res += d * d;
      AT(b, b->unew, i, j) = v;
    }
  double* t = b->u;
  b->u = b->unew;
  b->unew = t;
  return res;
}

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 4) {
    if (rank == 0) fprintf(stderr, "usage: jacobi2d N ITERATIONS K\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int n = (int)parse_positive(argv[1], "N", rank);
  int iterations = (int)parse_positive(argv[2], "ITERATIONS", rank);
  int k = (int)parse_positive(argv[3], "K", rank);

  int dims[2] = {0, 0};
  MPI_Dims_create(size, 2, dims);
  if (n % dims[0] != 0 || n % dims[1] != 0) {
    if (rank == 0)
      fprintf(stderr, "jacobi2d: N=%d is not divisible by the %d x %d process grid\n", n, dims[0], dims[1]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int prow = rank / dims[1], pcol = rank % dims[1];
  Block b;
  b.nx = n / dims[0];
  b.ny = n / dims[1];
  b.up = prow > 0 ? rank - dims[1] : MPI_PROC_NULL;
  b.down = prow < dims[0] - 1 ? rank + dims[1] : MPI_PROC_NULL;
  b.left = pcol > 0 ? rank - 1 : MPI_PROC_NULL;
  b.right = pcol < dims[1] - 1 ? rank + 1 : MPI_PROC_NULL;
  size_t cells = (size_t)(b.nx + 2) * (b.ny + 2);
  b.u = malloc(cells * sizeof(double));
  b.unew = malloc(cells * sizeof(double));
  for (int s = 0; s < 2; s++) {
    b.sendbuf[s] = malloc(b.nx * sizeof(double));
    b.recvbuf[s] = malloc(b.nx * sizeof(double));
  }
  init_block(&b, prow * b.nx, pcol * b.ny, n);

  double residual = 0.0;
  for (int it = 1; it <= iterations; it++) {
    exchange_halos(&b, MPI_COMM_WORLD);
    double local = sweep(&b);
    if (it % k == 0) {
      MPI_Allreduce(&local, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      if (rank == 0) printf("jacobi2d: iteration %d residual %.6e\n", it, residual);
    }
  }

  free(b.u);
  free(b.unew);
  for (int s = 0; s < 2; s++) {
    free(b.sendbuf[s]);
    free(b.recvbuf[s]);
  }
  MPI_Finalize();
  return 0;
}
