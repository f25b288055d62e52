"""The Ray engine: each shard is a Ray task (the ``cluster`` extra: ``pip install "mazeplugin[cluster]"``).

Imported only when a build asks for ``engine="ray"``. Without ``address`` a
local Ray instance with ``workers`` CPUs is started for the build and shut
down after it; with ``address`` (``"auto"``, ``"ray://host:10001"``) the
build joins that cluster, whose nodes must reach the output folder (a
shared file system) and import mazeplugin.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Sequence

__all__ = ["require_ray", "run_ray"]


def require_ray() -> None:
    """Import Ray, or say how to install it."""
    try:
        import ray  # noqa: F401
    except ImportError:
        from .errors import DatasetError

        raise DatasetError('engine "ray" needs Ray: pip install "mazeplugin[cluster]"') from None


def run_ray(tasks: Sequence[Any], function: Callable[[Any], Any], workers: int, address: Optional[str],
            done: Callable[[Any, Any], None]) -> None:
    """Run ``function`` over ``tasks`` as Ray tasks, at most ``2 * workers`` in flight; ``done`` as each ends."""
    import ray

    started = False
    if not ray.is_initialized():
        if address is None:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
        started = True
    try:
        remote = ray.remote(num_cpus=1, max_retries=3)(function)
        pending: Dict[Any, Any] = {}
        queue = iter(tasks)
        for task in queue:
            pending[remote.remote(task)] = task
            if len(pending) >= 2 * workers:
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    done(pending.pop(ref), ray.get(ref))
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                done(pending.pop(ref), ray.get(ref))
    except BaseException:
        for ref in list(locals().get("pending", {})):
            ray.cancel(ref)
        raise
    finally:
        if started:
            ray.shutdown()
