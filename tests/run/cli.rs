//! `loomc run` end to end: `.npy` arrays in and out, results against a reference, and argument
//! errors that name the parameter.

use super::support::Rng;
use libtest_mimic::{Failed, Trial};
use npyz::WriterBuilder;
use std::path::Path;
use std::process::Command;

pub fn trials() -> Vec<Trial> {
    vec![
        Trial::test("cli/run_round_trips_npy", round_trip),
        Trial::test("cli/run_rejects_wrong_dtype_and_shape", rejects),
        Trial::test("cli/metadata_is_what_the_runtime_reads", metadata_snapshot),
    ]
}

fn write_f32(path: &Path, values: &[f32]) -> Result<(), Failed> {
    let mut out = std::fs::File::create(path).map_err(|e| e.to_string())?;
    let mut writer = npyz::WriteOptions::<f32>::new()
        .default_dtype()
        .shape(&[values.len() as u64])
        .writer(&mut out)
        .begin_nd()
        .map_err(|e| e.to_string())?;
    writer
        .extend(values.iter().copied())
        .map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())?;
    Ok(())
}

fn loomc(args: &[&str]) -> Result<std::process::Output, Failed> {
    Ok(Command::new(env!("CARGO_BIN_EXE_loomc"))
        .args(args)
        .output()
        .map_err(|e| e.to_string())?)
}

fn round_trip() -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let n = 1000usize;
    let mut rng = Rng::new(99);
    let x = rng.f32s(n, -5.0, 5.0);
    let y = rng.f32s(n, -5.0, 5.0);
    let (xp, yp, outp) = (
        dir.path().join("x.npy"),
        dir.path().join("y.npy"),
        dir.path().join("out.npy"),
    );
    write_f32(&xp, &x)?;
    write_f32(&yp, &y)?;
    let file = super::support::repo_root().join("examples/saxpy.loom");
    let (x_arg, y_arg, out_arg) = (
        format!("x={}", xp.display()),
        format!("y={}", yp.display()),
        format!("y={}", outp.display()),
    );
    let out = loomc(&[
        "run",
        &file.display().to_string(),
        "--kernel",
        "saxpy",
        "--blocks",
        "4",
        "--block-size",
        "256",
        "--arg",
        "n=1000",
        "--arg",
        "a=1.5",
        "--in",
        &x_arg,
        "--in",
        &y_arg,
        "--out",
        &out_arg,
    ])?;
    if !out.status.success() {
        return Err(format!("loomc run failed: {}", String::from_utf8_lossy(&out.stderr)).into());
    }
    let npy = npyz::NpyFile::new(std::fs::File::open(&outp).map_err(|e| e.to_string())?)
        .map_err(|e| e.to_string())?;
    if npy.shape() != [n as u64] {
        return Err(format!("out.npy has shape {:?}", npy.shape()).into());
    }
    let got: Vec<f32> = npy.into_vec().map_err(|e| e.to_string())?;
    let expected: Vec<f64> = x
        .iter()
        .zip(&y)
        .map(|(x, y)| (1.5 * x + y) as f64)
        .collect();
    let got: Vec<f64> = got.iter().map(|v| *v as f64).collect();
    super::support::close("out", &got, &expected, 1e-6, 1e-5)?;
    Ok(())
}

fn rejects() -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let xp = dir.path().join("x.npy");
    write_f32(&xp, &[1.0; 10])?;
    let file = super::support::repo_root().join("tests/ui/ok/prefix_sum.loom");
    let x_arg = format!("x={}", xp.display());
    // prefixSum's x is Int32[n]: a Float32 file is the wrong dtype.
    let out = loomc(&[
        "run",
        &file.display().to_string(),
        "--kernel",
        "prefixSum",
        "--blocks",
        "1",
        "--arg",
        "n=10",
        "--in",
        &x_arg,
        "--out",
        "out=unused.npy",
    ])?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() != Some(2)
        || !stderr.contains("parameter `x` holds Int32 (dtype <i4), but")
        || !stderr.contains("has dtype <f4")
    {
        return Err(format!(
            "wrong dtype not rejected clearly (status {:?}): {stderr}",
            out.status.code()
        )
        .into());
    }
    // saxpy's x is Float32[n]: ten elements for n = 12 is the wrong shape.
    let file = super::support::repo_root().join("examples/saxpy.loom");
    let out = loomc(&[
        "run",
        &file.display().to_string(),
        "--kernel",
        "saxpy",
        "--blocks",
        "1",
        "--arg",
        "n=12",
        "--arg",
        "a=1",
        "--in",
        &x_arg,
        "--out",
        "y=unused.npy",
    ])?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() != Some(2)
        || !stderr.contains("parameter `x` must have shape [12] ([n] with BLOCKS = 1), not [10]")
    {
        return Err(format!(
            "wrong shape not rejected clearly (status {:?}): {stderr}",
            out.status.code()
        )
        .into());
    }
    if Path::new("unused.npy").exists() {
        return Err("a rejected run wrote its output".into());
    }
    // Without a GPU, --device cuda says so.
    if !loom_runtime::driver_present() {
        let out = loomc(&[
            "run",
            &file.display().to_string(),
            "--kernel",
            "saxpy",
            "--blocks",
            "1",
            "--arg",
            "n=10",
            "--arg",
            "a=1",
            "--in",
            &x_arg,
            "--out",
            "y=unused.npy",
            "--device",
            "cuda",
        ])?;
        let stderr = String::from_utf8_lossy(&out.stderr);
        if out.status.code() != Some(1) || !stderr.contains("no CUDA driver on this machine") {
            return Err(format!(
                "--device cuda without a GPU (status {:?}): {stderr}",
                out.status.code()
            )
            .into());
        }
    }
    Ok(())
}

/// `runtime/tests/row_max.json` is what the runtime's tests read: it must stay what loomc writes.
fn metadata_snapshot() -> Result<(), Failed> {
    let root = super::support::repo_root();
    let out = loomc(&["tests/ui/ok/row_max.loom", "--emit=metadata", "-o", "-"]).and_then(|o| {
        if o.status.success() {
            Ok(o)
        } else {
            Err(String::from_utf8_lossy(&o.stderr).into_owned().into())
        }
    })?;
    let expected = std::fs::read_to_string(root.join("runtime/tests/row_max.json"))
        .map_err(|e| e.to_string())?;
    if String::from_utf8_lossy(&out.stdout) != expected {
        return Err("loomc --emit=metadata of tests/ui/ok/row_max.loom differs from runtime/tests/row_max.json".into());
    }
    let metadata = loom_runtime::ModuleMetadata::from_json(&expected)?;
    if metadata.kernels[0].params.len() != 4 {
        return Err("rowMax has 4 parameters".into());
    }
    Ok(())
}
