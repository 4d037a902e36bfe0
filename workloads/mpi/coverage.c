/* Calls every MPI operation that SimGrid 3.32's time-independent replay knows, at least once,
 * so that its trace shows the syntax of every action: point-to-point (send, isend, recv, irecv,
 * test, wait, waitall, sendrecv), every collective of the replay (barrier, bcast, reduce,
 * allreduce, allgather(v), gather(v), scatter(v), alltoall(v), reduce_scatter) and the
 * communicator calls (comm_size, comm_split, comm_dup), with a little real computation between
 * phases. Roots other than 0 and unequal counts make those fields visible in the trace.
 *
 * Usage: coverage COUNT          (at least 4 ranks, an even number)
 * COUNT is the base element count of every message. Deterministic: the one MPI_Test is made to
 * fail surely (its message is sent only after a barrier that follows it), no wildcard receive.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { TAG_P2P = 40, TAG_LATE = 41, TAG_SUB = 42 };

static double sink; /* keeps the computations alive */

static void compute(long steps) {
  double v = sink;
  for (long i = 0; i < steps; i++) v = v * 0.999999 + 1e-7 * (double)(i & 7);
  sink = v;
}

/* send, recv, isend, irecv, wait, waitall, sendrecv, and one test that fails. */
static void point_to_point(int rank, int size, int count, double* a, double* b) {
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  /* Even ranks send first, odd ranks receive first: blocking send / recv without deadlock. */
  if (rank % 2 == 0) {
    MPI_Send(a, count, MPI_DOUBLE, right, TAG_P2P, MPI_COMM_WORLD);
    MPI_Recv(b, count, MPI_DOUBLE, left, TAG_P2P, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(b, count, MPI_DOUBLE, left, TAG_P2P, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(a, count, MPI_DOUBLE, right, TAG_P2P, MPI_COMM_WORLD);
  }
  compute(20000);

  MPI_Request req[2];
  MPI_Irecv(b, count, MPI_INT, left, TAG_P2P, MPI_COMM_WORLD, &req[0]);
  MPI_Isend(a, count, MPI_INT, right, TAG_P2P, MPI_COMM_WORLD, &req[1]);
  MPI_Wait(&req[0], MPI_STATUS_IGNORE);
  MPI_Wait(&req[1], MPI_STATUS_IGNORE);
  compute(20000);

  MPI_Irecv(b, 2 * count, MPI_CHAR, left, TAG_P2P, MPI_COMM_WORLD, &req[0]);
  MPI_Isend(a, 2 * count, MPI_CHAR, right, TAG_P2P, MPI_COMM_WORLD, &req[1]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  compute(20000);

  MPI_Sendrecv(a, count, MPI_DOUBLE, right, TAG_P2P, b, count, MPI_DOUBLE, left, TAG_P2P, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  compute(20000);

  /* Rank 0 tests a receive whose message rank 1 sends only after the barrier: the test fails. */
  if (rank == 0) {
    int flag = 1;
    MPI_Irecv(b, count, MPI_DOUBLE, 1, TAG_LATE, MPI_COMM_WORLD, &req[0]);
    MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
    if (flag) fprintf(stderr, "coverage: the test succeeded, the trace differs from the expected one\n");
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) MPI_Send(a, count, MPI_DOUBLE, 0, TAG_LATE, MPI_COMM_WORLD);
  }
  compute(20000);
}

/* Every collective of the replay on MPI_COMM_WORLD, roots 0, 1 and size - 1. */
static void collectives(int rank, int size, int count, double* a, double* b) {
  int* counts = malloc(size * sizeof(int));
  int* displs = malloc(size * sizeof(int));
  int* rcounts = malloc(size * sizeof(int));
  int* rdispls = malloc(size * sizeof(int));
  int total = 0;
  for (int i = 0; i < size; i++) {
    counts[i] = count + i; /* rank i contributes count + i elements */
    displs[i] = total;
    total += counts[i];
  }

  MPI_Bcast(a, count, MPI_DOUBLE, 1, MPI_COMM_WORLD);
  compute(10000);
  MPI_Reduce(a, b, count, MPI_DOUBLE, MPI_SUM, size - 1, MPI_COMM_WORLD);
  compute(10000);
  MPI_Allreduce(a, b, count, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  compute(10000);
  MPI_Gather(a, count, MPI_DOUBLE, b, count, MPI_DOUBLE, 1, MPI_COMM_WORLD);
  compute(10000);
  MPI_Gatherv(a, counts[rank], MPI_DOUBLE, b, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  compute(10000);
  MPI_Allgather(a, count, MPI_DOUBLE, b, count, MPI_DOUBLE, MPI_COMM_WORLD);
  compute(10000);
  MPI_Allgatherv(a, counts[rank], MPI_DOUBLE, b, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  compute(10000);
  MPI_Scatter(a, count, MPI_DOUBLE, b, count, MPI_DOUBLE, size - 1, MPI_COMM_WORLD);
  compute(10000);
  MPI_Scatterv(a, counts, displs, MPI_DOUBLE, b, counts[rank], MPI_DOUBLE, 0, MPI_COMM_WORLD);
  compute(10000);
  MPI_Alltoall(a, count, MPI_DOUBLE, b, count, MPI_DOUBLE, MPI_COMM_WORLD);
  compute(10000);
  /* alltoallv: rank r sends count + r + j elements to rank j, so rank j receives count + i + j
   * from rank i. */
  int stotal = 0, rtotal = 0;
  for (int j = 0; j < size; j++) {
    counts[j] = count + rank + j;
    displs[j] = stotal;
    stotal += counts[j];
    rcounts[j] = count + j + rank;
    rdispls[j] = rtotal;
    rtotal += rcounts[j];
  }
  MPI_Alltoallv(a, counts, displs, MPI_DOUBLE, b, rcounts, rdispls, MPI_DOUBLE, MPI_COMM_WORLD);
  compute(10000);
  for (int j = 0; j < size; j++) rcounts[j] = count + j;
  MPI_Reduce_scatter(a, b, rcounts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  compute(10000);
  MPI_Barrier(MPI_COMM_WORLD);
  free(counts);
  free(displs);
  free(rcounts);
  free(rdispls);
}

/* comm_size, comm_split (even / odd halves), comm_dup, and traffic on the new communicators:
 * the trace names no communicator, so this shows how such operations are recorded. */
static void communicators(int rank, int count, double* a, double* b) {
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm half, dup;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  int half_rank, half_size;
  MPI_Comm_rank(half, &half_rank);
  MPI_Comm_size(half, &half_size);
  compute(10000);
  /* Same collectives in both halves; the root is half rank 1 (world rank 2 or 3). */
  MPI_Bcast(a, count, MPI_DOUBLE, 1, half);
  MPI_Allreduce(a, b, count, MPI_DOUBLE, MPI_SUM, half);
  /* Half rank 0 sends to half rank 1 (world ranks 0 -> 2 and 1 -> 3). */
  if (half_rank == 0)
    MPI_Send(a, count, MPI_DOUBLE, 1, TAG_SUB, half);
  else if (half_rank == 1)
    MPI_Recv(b, count, MPI_DOUBLE, 0, TAG_SUB, half, MPI_STATUS_IGNORE);
  compute(10000);
  MPI_Barrier(dup);
  MPI_Comm_free(&half);
  MPI_Comm_free(&dup);
}

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 2 || atoi(argv[1]) <= 0 || size < 4 || size % 2 != 0) {
    if (rank == 0) fprintf(stderr, "usage: coverage COUNT (COUNT > 0, an even number of ranks >= 4)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int count = atoi(argv[1]);
  /* Large enough for every buffer above: alltoallv moves up to size * (count + 2 size). */
  size_t len = (size_t)size * (count + 2 * size);
  double* a = calloc(len, sizeof(double));
  double* b = calloc(len, sizeof(double));
  compute(50000);
  point_to_point(rank, size, count, a, b);
  collectives(rank, size, count, a, b);
  communicators(rank, count, a, b);
  if (rank == 0) printf("coverage: done (%g)\n", sink);
  free(a);
  free(b);
  MPI_Finalize();
  return 0;
}
