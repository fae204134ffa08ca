"""Many crawls: a batch's jobs (``jobs``), the local executor and
``crawl_many`` (``local``), the Ray executor (``ray_executor``), and a
batch's output folder and per-job state (``output``, ``job_state``).
"""
