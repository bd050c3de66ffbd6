"""Batched rollouts: threads and Dask workers give what single stepping gives."""
import numpy as np
import pytest

import pliant


def single_stepping(model, qpos0, qvel0, ctrl):
    batch, steps = ctrl.shape[0], ctrl.shape[1]
    qpos = np.empty((batch, steps, model.nq))
    qvel = np.empty((batch, steps, model.nv))
    for b in range(batch):
        data = pliant.Data(model)
        data.qpos[:] = qpos0[b]
        data.qvel[:] = qvel0[b]
        for t in range(steps):
            data.ctrl[:] = ctrl[b, t]
            pliant.step(model, data)
            qpos[b, t] = data.qpos
            qvel[b, t] = data.qvel
    return qpos, qvel


def batch_inputs(model, batch, steps, seed=3):
    rng = np.random.default_rng(seed)
    qpos0 = np.tile(np.array(pliant.Data(model).qpos), (batch, 1))
    qpos0[:, 2] += 0.05 * rng.standard_normal(batch)
    qvel0 = 0.1 * rng.standard_normal((batch, model.nv))
    ctrl = 0.3 * rng.standard_normal((batch, steps, model.nu))
    return qpos0, qvel0, ctrl


def test_rollout_on_two_threads_equals_single_stepping(humanoid_path):
    model = pliant.Model.from_xml_path(humanoid_path)
    qpos0, qvel0, ctrl = batch_inputs(model, 5, 60)
    expected = single_stepping(model, qpos0, qvel0, ctrl)
    for threads in (1, 2):
        qpos, qvel = pliant.rollout(model, qpos0, qvel0, ctrl, threads=threads)
        assert qpos.shape == (5, 60, model.nq) and qvel.shape == (5, 60, model.nv)
        assert np.array_equal(qpos, expected[0]) and np.array_equal(qvel, expected[1]), threads


def test_rollout_rejects_bad_shapes(humanoid_path):
    model = pliant.Model.from_xml_path(humanoid_path)
    qpos0, qvel0, ctrl = batch_inputs(model, 2, 3)
    with pytest.raises(ValueError, match=r"qpos0 needs shape \(B, 28\), got \(2, 27\)"):
        pliant.rollout(model, qpos0[:, :27], qvel0, ctrl)
    with pytest.raises(ValueError, match=r"qvel0 needs shape \(2, 27\)"):
        pliant.rollout(model, qpos0, qvel0[:1], ctrl)
    with pytest.raises(ValueError, match=r"ctrl needs shape \(2, T, 21\), got \(2, 3\)"):
        pliant.rollout(model, qpos0, qvel0, ctrl[:, :, 0])
    with pytest.raises(ValueError, match="threads"):
        pliant.rollout(model, qpos0, qvel0, ctrl, threads=0)
    with pytest.raises(TypeError):
        pliant.rollout(model, "qpos", qvel0, ctrl)


def test_distributed_rollout_on_a_local_cluster_equals_rollout(humanoid_path):
    distributed = pytest.importorskip("distributed")
    import pliant.distributed as pd

    model = pliant.Model.from_xml_path(humanoid_path)
    qpos0, qvel0, ctrl = batch_inputs(model, 7, 40, seed=5)
    expected = pliant.rollout(model, qpos0, qvel0, ctrl)
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address=None)
    try:
        with distributed.Client(cluster) as client:
            assert len(client.scheduler_info()["workers"]) == 2
            qpos, qvel = pd.rollout(client, humanoid_path, qpos0, qvel0, ctrl)
            assert np.array_equal(qpos, expected[0]) and np.array_equal(qvel, expected[1])
            # More chunks than workers, still in order.
            qpos, qvel = pd.rollout(client, humanoid_path, qpos0, qvel0, ctrl, chunks=5)
            assert np.array_equal(qpos, expected[0]) and np.array_equal(qvel, expected[1])
            # A batch over a megabyte goes through client.scatter; twice,
            # with the same arrays.
            q, v, u = batch_inputs(model, 12, 600, seed=7)
            local = pliant.rollout(model, q, v, u, threads=2)
            for _ in range(2):
                qpos, qvel = pd.rollout(client, humanoid_path, q, v, u)
                assert np.array_equal(qpos, local[0]) and np.array_equal(qvel, local[1])
            with pytest.raises(ValueError, match="nq 28"):
                pd.rollout(client, humanoid_path, qpos0[:, :5], qvel0, ctrl)
    finally:
        cluster.close()
