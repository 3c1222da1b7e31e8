"""Judge, with a real NumPy, each site where NumPy 1.26.4's weak_and_warn and the warning mode disagree.

    .venv-np126/bin/python docs/audits/nep50-nibabel/judge.py > old.json
    .venv-np2/bin/python docs/audits/nep50-nibabel/judge.py > new.json

Each site's operation is run on the operands it had in nibabel's tests (their dtypes and values as the
records and warnings give them, or the test's own data), and its outcome printed: the result's dtype
and values.  A site changes when the two NumPys print different outcomes (``tools/nep50_measure.py``
reads both files).
"""

import hashlib
import json
import os
import sys
import warnings

import numpy as np

warnings.simplefilter("ignore")


def outcome(call):
    try:
        result = call()
    except Exception as exc:  # noqa: BLE001
        return f"raises {type(exc).__name__}"
    result = np.asarray(result)
    dtype = result.dtype.newbyteorder("=")
    shown = (
        repr(result.tolist())
        if result.size <= 4
        else "sha256 " + hashlib.sha256(result.astype(dtype).tobytes()).hexdigest()[:16]
    )
    return f"{dtype.name} {shown}"


def zooms_negated():  # spm99analyze.py:139, volumeutils.py:1358: zooms[0] *= -1 on float32 zooms
    zooms = np.array([2.5, 3.0, 4.0], dtype=np.float32)
    zooms[0] *= -1
    return zooms


def spm_where():  # tests/test_processing.py:428: np.where(outside_vol, np.nan, np.array(spm_resampled.dataobj))
    import nibabel as nib
    from nibabel.tests.test_processing import DATA_DIR

    resampled = np.array(nib.load(os.path.join(DATA_DIR, "resampled_anat_moved.nii")).dataobj)
    outside = np.zeros(resampled.shape, dtype=bool)
    outside[0] = True
    return np.where(outside, np.nan, resampled)


def mask_volume():  # imagestats.py:63: mask_volume_vx * voxel_volume_mm3, as tests/test_imagestats.py makes them
    import nibabel as nib
    from nibabel.imagestats import count_nonzero_voxels

    img = nib.Nifti1Image(np.ones((2, 2, 2), dtype=np.uint8), np.eye(4))
    img.header.set_zooms((1.5, 2.0, 2.5))
    return count_nonzero_voxels(img) * np.prod(img.header.get_zooms()[:3])


SITES = {
    "nibabel/imagestats.py:63": mask_volume,
    "nibabel/spm99analyze.py:139": zooms_negated,
    "nibabel/volumeutils.py:1358": zooms_negated,
    "nibabel/tests/test_processing.py:428": spm_where,
    # tests/test_ecat.py:168: a float32 header value compared with a Python float
    "nibabel/tests/test_ecat.py:168": lambda: np.float32(2.2024197578430176) == 2.20241978764534,
    # tests/test_scaling.py:202-203: complex64 extremes plus a Python complex
    "nibabel/tests/test_scaling.py:202": lambda: np.complex64(-3.4028234663852886e38) + 0j,
    "nibabel/tests/test_scaling.py:203": lambda: np.complex64(3.4028234663852886e38) + 0j,
    # tests/test_volumeutils.py:751: a float32 array plus a NumPy float64 scalar
    "nibabel/tests/test_volumeutils.py:751": lambda: np.ones(3, dtype=np.float32) + np.float64(1),
}

if __name__ == "__main__":
    only = sys.argv[1:]
    json.dump(
        {"numpy": np.__version__, "outcomes": {s: outcome(f) for s, f in SITES.items() if not only or s in only}},
        sys.stdout,
        indent=1,
    )
    print()
