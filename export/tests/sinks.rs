//! The sinks: files written, read back, split into datasets, and never where they must not go.

mod common;

use std::fs::{self, File};

use arrow_array::RecordBatch;
use common::{data_path, pgn_batch, sgf_batch};
use kifu_export::{Error, OutFormat, Sink, SinkOptions, Table, TableOptions, create};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

fn seed_games() -> RecordBatch {
    let pgn = fs::read(data_path("seed-kasparov-kramnik-2001.pgn")).unwrap();
    let mut many = Vec::new();
    for _ in 0..25 {
        many.extend_from_slice(&pgn);
        many.extend_from_slice(b"\n\n");
    }
    pgn_batch(Table::PgnGames, &TableOptions::default(), "seed.pgn", &many)
}

fn read_parquet(path: &std::path::Path) -> Vec<RecordBatch> {
    let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(path).unwrap())
        .unwrap()
        .build()
        .unwrap();
    reader.map(Result::unwrap).collect()
}

fn force() -> SinkOptions {
    SinkOptions {
        force: true,
        ..SinkOptions::default()
    }
}

fn names(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    v.sort();
    v
}

#[test]
fn parquet_file_reads_back_equal() {
    let tmp = tempfile::tempdir().unwrap();
    let batch = seed_games();
    let out = tmp.path().join("games.parquet");
    let mut sink = create(
        &out,
        OutFormat::Parquet,
        batch.schema(),
        &SinkOptions::default(),
    )
    .unwrap();
    sink.write(&batch.slice(0, 10)).unwrap();
    sink.write(&batch.slice(10, 15)).unwrap();
    let summary = sink.finish().unwrap();
    assert_eq!(summary.rows, 25);
    assert_eq!(summary.files, std::slice::from_ref(&out));
    assert_eq!(summary.bytes, fs::metadata(&out).unwrap().len());
    assert_eq!(
        names(tmp.path()),
        ["games.parquet"],
        "no temporary file left"
    );
    let back = read_parquet(&out);
    let all = arrow_select_concat(&back);
    assert_eq!(all.num_rows(), 25);
    // the Arrow schema is embedded: the same columns and types come back
    assert_eq!(all.schema().fields(), batch.schema().fields());
    assert_eq!(all.columns(), batch.columns());
}

/// The batches as one.
fn arrow_select_concat(batches: &[RecordBatch]) -> RecordBatch {
    arrow_select::concat::concat_batches(&batches[0].schema(), batches).unwrap()
}

#[test]
fn row_groups_are_bounded() {
    let tmp = tempfile::tempdir().unwrap();
    let batch = seed_games();
    let out = tmp.path().join("g.parquet");
    let opts = SinkOptions {
        row_group_rows: 10,
        ..SinkOptions::default()
    };
    let mut sink = create(&out, OutFormat::Parquet, batch.schema(), &opts).unwrap();
    sink.write(&batch).unwrap();
    sink.finish().unwrap();
    let meta = ParquetRecordBatchReaderBuilder::try_new(File::open(&out).unwrap())
        .unwrap()
        .metadata()
        .clone();
    let rows: Vec<i64> = meta.row_groups().iter().map(|g| g.num_rows()).collect();
    assert_eq!(rows, [10, 10, 5]);
    let codec = meta.row_group(0).column(0).compression();
    assert!(
        matches!(codec, parquet::basic::Compression::ZSTD(_)),
        "{codec:?}"
    );
}

#[test]
fn dataset_split_into_parts() {
    let tmp = tempfile::tempdir().unwrap();
    let batch = seed_games();
    let out = tmp.path().join("games");
    let opts = SinkOptions {
        max_rows_per_file: Some(10),
        ..SinkOptions::default()
    };
    let mut sink = create(&out, OutFormat::Parquet, batch.schema(), &opts).unwrap();
    for k in 0..5 {
        sink.write(&batch.slice(k * 5, 5)).unwrap();
    }
    let summary = sink.finish().unwrap();
    assert_eq!(summary.rows, 25);
    assert_eq!(
        names(&out),
        [
            "_SUCCESS",
            "part-00000.parquet",
            "part-00001.parquet",
            "part-00002.parquet"
        ]
    );
    let counts: Vec<usize> = summary
        .files
        .iter()
        .map(|f| read_parquet(f).iter().map(RecordBatch::num_rows).sum())
        .collect();
    assert_eq!(counts, [10, 10, 5]);
    // again: refused without force; forced, the dataset is replaced whole
    assert!(matches!(
        create(&out, OutFormat::Parquet, batch.schema(), &opts),
        Err(Error::Exists(_))
    ));
    let forced = SinkOptions {
        force: true,
        ..opts.clone()
    };
    let mut sink = create(&out, OutFormat::Parquet, batch.schema(), &forced).unwrap();
    sink.write(&batch.slice(0, 3)).unwrap();
    sink.finish().unwrap();
    assert_eq!(names(&out), ["_SUCCESS", "part-00000.parquet"]);
    assert_eq!(
        names(tmp.path()),
        ["games"],
        "no temporary or old directory left"
    );
    // a directory holding files kifu did not write is never replaced
    fs::write(out.join("notes.txt"), "mine").unwrap();
    assert!(matches!(
        create(&out, OutFormat::Parquet, batch.schema(), &forced),
        Err(Error::Output(kifu_output::Error::Foreign(..)))
    ));
    assert_eq!(names(&out), ["_SUCCESS", "notes.txt", "part-00000.parquet"]);
}

#[test]
fn temporary_files_are_hidden_and_removed() {
    let tmp = tempfile::tempdir().unwrap();
    let batch = seed_games();
    let out = tmp.path().join("ds");
    let opts = SinkOptions {
        max_rows_per_file: Some(20),
        ..SinkOptions::default()
    };
    let mut sink = create(&out, OutFormat::Parquet, batch.schema(), &opts).unwrap();
    sink.write(&batch).unwrap();
    // the dataset is built in a hidden directory beside its place, which stays empty
    assert!(!out.exists());
    let during = names(tmp.path());
    assert_eq!(during.len(), 1, "{during:?}");
    assert!(
        during[0].starts_with(".ds.") && during[0].ends_with(".kifu-tmp"),
        "{during:?}"
    );
    let parts = names(&tmp.path().join(&during[0]));
    assert_eq!(parts, ["part-00000.parquet", "part-00001.parquet"]);
    // an interrupted export (the sink dropped): nothing remains
    drop(sink);
    assert_eq!(names(tmp.path()), Vec::<String>::new());

    let single = tmp.path().join("one.csv");
    let mut sink = create(
        &single,
        OutFormat::Csv,
        batch.schema(),
        &SinkOptions::default(),
    )
    .unwrap();
    sink.write(&batch).unwrap();
    assert!(!single.exists());
    let during = names(tmp.path());
    assert!(
        during.len() == 1 && during[0].starts_with(".one.csv.") && during[0].ends_with(".kifu-tmp"),
        "{during:?}"
    );
    drop(sink);
    assert!(!single.exists());
    assert_eq!(names(tmp.path()), Vec::<String>::new());
}

#[test]
fn outputs_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in.pgn");
    fs::write(&input, "1. e4 *").unwrap();
    let batch = seed_games();
    let schema = batch.schema();
    let opts = SinkOptions {
        force: true,
        inputs: vec![input.clone()],
        ..SinkOptions::default()
    };
    // the same file by another path
    let other = tmp.path().join(".").join("in.pgn");
    assert!(matches!(
        create(&other, OutFormat::Csv, schema.clone(), &opts),
        Err(Error::Input(_))
    ));
    #[cfg(unix)]
    {
        let link = tmp.path().join("link.pgn");
        std::os::unix::fs::symlink(&input, &link).unwrap();
        assert!(matches!(
            create(&link, OutFormat::Csv, schema.clone(), &opts),
            Err(Error::Input(_))
        ));
    }
    assert!(matches!(
        create(tmp.path(), OutFormat::Csv, schema.clone(), &force()),
        Err(Error::IsDirectory(_))
    ));
    // a part file that is an input is never replaced
    let ds = tmp.path().join("ds");
    fs::create_dir(&ds).unwrap();
    let part = ds.join("part-00000.csv");
    fs::write(&part, "x").unwrap();
    let opts = SinkOptions {
        force: true,
        dataset: true,
        inputs: vec![part.clone()],
        ..SinkOptions::default()
    };
    assert!(matches!(
        create(&ds, OutFormat::Csv, schema.clone(), &opts),
        Err(Error::Input(_))
    ));
    assert_eq!(fs::read_to_string(&part).unwrap(), "x");
    // a batch of another table
    let out = tmp.path().join("x.parquet");
    let mut sink = create(&out, OutFormat::Parquet, schema, &force()).unwrap();
    let moves = pgn_batch(Table::PgnMoves, &TableOptions::default(), "f", b"1. e4 *");
    assert!(matches!(sink.write(&moves), Err(Error::Schema)));
}

#[test]
fn forced_file_is_replaced_when_complete() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("g.csv");
    fs::write(&out, "old").unwrap();
    let batch = seed_games();
    let mut sink = create(&out, OutFormat::Csv, batch.schema(), &force()).unwrap();
    sink.write(&batch).unwrap();
    assert_eq!(
        fs::read_to_string(&out).unwrap(),
        "old",
        "untouched until complete"
    );
    sink.finish().unwrap();
    assert!(
        fs::read_to_string(&out)
            .unwrap()
            .starts_with("file,game_index,byte_offset,Event,")
    );
}

#[test]
fn csv_cells() {
    let tmp = tempfile::tempdir().unwrap();
    let batch = seed_games();
    let out = tmp.path().join("g.csv");
    let mut sink = create(
        &out,
        OutFormat::Csv,
        batch.schema(),
        &SinkOptions::default(),
    )
    .unwrap();
    sink.write(&batch).unwrap();
    sink.finish().unwrap();
    let mut r = csv::Reader::from_path(&out).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let names: Vec<String> = batch
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    assert_eq!(header, names);
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 25);
    let col = |n: &str| header.iter().position(|h| h == n).unwrap();
    let row = &rows[0];
    assert_eq!(&row[col("White")], "Kasparov, Garry");
    assert_eq!(&row[col("Date")], "2001-12-05");
    assert_eq!(&row[col("WhiteElo")], "2839");
    assert_eq!(&row[col("Round")], "4");
    assert_eq!(&row[col("UTCDate")], "", "null is an empty field");
    let moves: Vec<String> = serde_json::from_str(&row[col("moves")]).unwrap();
    assert_eq!(moves[..3], ["e4", "e5", "Nf3"]);
    let errors: serde_json::Value = serde_json::from_str(&row[col("errors")]).unwrap();
    assert_eq!(errors[0]["kind"], "stray_brace");
    let tags: serde_json::Value = serde_json::from_str(&row[col("tags")]).unwrap();
    assert_eq!(tags, serde_json::json!({}));
    assert!(row[col("movetext")].starts_with("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 $1 {first comment}"));
}

#[test]
fn jsonl_json_table_is_kifu_json() {
    let tmp = tempfile::tempdir().unwrap();
    let pgn = fs::read(data_path("seed-kasparov-kramnik-2001.pgn")).unwrap();
    let batch = pgn_batch(
        Table::PgnJson,
        &TableOptions::default(),
        "dir/seed.pgn",
        &pgn,
    );
    let out = tmp.path().join("g.jsonl");
    let mut sink = create(
        &out,
        OutFormat::Jsonl,
        batch.schema(),
        &SinkOptions::default(),
    )
    .unwrap();
    sink.write(&batch).unwrap();
    sink.finish().unwrap();
    let text = fs::read_to_string(&out).unwrap();
    // exactly what `kifu json` writes: the game's serialization, "file" after "offset"
    let game = kifu::pgn::Games::new(&pgn).next().unwrap();
    let body = serde_json::to_string(&game).unwrap();
    let cut = body.match_indices(',').nth(1).unwrap().0 + 1;
    let expected = format!(
        "{}\"file\":\"dir/seed.pgn\",{}\n",
        &body[..cut],
        &body[cut..]
    );
    assert_eq!(text, expected);

    let sgf = fs::read(data_path("seed-takemiya-cho-meijin-1996.sgf")).unwrap();
    let batch = sgf_batch(Table::SgfJson, &TableOptions::default(), "t.sgf", &sgf);
    let out = tmp.path().join("t.jsonl");
    let mut sink = create(
        &out,
        OutFormat::Jsonl,
        batch.schema(),
        &SinkOptions::default(),
    )
    .unwrap();
    sink.write(&batch).unwrap();
    sink.finish().unwrap();
    let line = fs::read_to_string(&out).unwrap();
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(v["file"], "t.sgf");
    assert!(line.starts_with("{\"index\":0,\"offset\":0,\"file\":\"t.sgf\",\"tree\":{"));
}

#[test]
fn jsonl_of_a_table_is_one_object_per_row() {
    let tmp = tempfile::tempdir().unwrap();
    let batch = pgn_batch(
        Table::PgnMoves,
        &TableOptions::default(),
        "f",
        b"1. e4 {[%clk 0:01:00]} e5 *",
    );
    let out = tmp.path().join("m.jsonl");
    let mut sink = create(
        &out,
        OutFormat::Jsonl,
        batch.schema(),
        &SinkOptions::default(),
    )
    .unwrap();
    sink.write(&batch).unwrap();
    sink.finish().unwrap();
    let lines: Vec<serde_json::Value> = fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["san"], "e4");
    assert_eq!(lines[0]["clock"], 60.0);
    assert_eq!(lines[1]["clock"], serde_json::Value::Null);
    assert_eq!(lines[1]["nags"], serde_json::json!([]));
}

#[test]
fn empty_exports_still_have_their_schema() {
    let tmp = tempfile::tempdir().unwrap();
    let schema = kifu_export::schema(Table::SgfTrees, &TableOptions::default());
    for format in [OutFormat::Parquet, OutFormat::Csv, OutFormat::Jsonl] {
        let out = tmp.path().join(format!("ds-{}", format.extension()));
        let opts = SinkOptions {
            dataset: true,
            ..SinkOptions::default()
        };
        let sink = create(&out, format, schema.clone(), &opts).unwrap();
        let summary = sink.finish().unwrap();
        assert_eq!(summary.rows, 0);
        assert_eq!(summary.files.len(), 1);
        assert!(out.join("_SUCCESS").exists());
    }
    let pq = tmp.path().join("ds-parquet").join("part-00000.parquet");
    let builder = ParquetRecordBatchReaderBuilder::try_new(File::open(pq).unwrap()).unwrap();
    assert_eq!(builder.schema().fields(), schema.fields());
    let csv = fs::read_to_string(tmp.path().join("ds-csv").join("part-00000.csv")).unwrap();
    assert!(csv.starts_with("file,game_index,byte_offset,GM,"));
}

/// A sink is a `Send` trait object: the writer thread of a pipeline owns it.
#[test]
fn sinks_move_to_threads() {
    let tmp = tempfile::tempdir().unwrap();
    let batch = seed_games();
    let out = tmp.path().join("t.parquet");
    let mut sink: Box<dyn Sink> = create(
        &out,
        OutFormat::Parquet,
        batch.schema(),
        &SinkOptions::default(),
    )
    .unwrap();
    let summary = std::thread::spawn(move || {
        sink.write(&batch).unwrap();
        sink.finish().unwrap()
    })
    .join()
    .unwrap();
    assert_eq!(summary.rows, 25);
}

#[test]
fn parquet_is_the_same_bytes_at_every_encoding_thread_count() {
    let tmp = tempfile::tempdir().unwrap();
    let batch = seed_games();
    let mut files = Vec::new();
    for (threads, step) in [(0, 25), (1, 7), (3, 3), (2, 11)] {
        let out = tmp.path().join(format!("t{threads}.parquet"));
        let opts = SinkOptions {
            threads,
            row_group_rows: 4,
            ..force()
        };
        let mut sink = create(&out, OutFormat::Parquet, batch.schema(), &opts).unwrap();
        // the rows come in batches cut anywhere: row groups do not depend on it
        let mut start = 0;
        while start < batch.num_rows() {
            let n = step.min(batch.num_rows() - start);
            sink.write(&batch.slice(start, n)).unwrap();
            start += n;
        }
        assert_eq!(sink.finish().unwrap().rows, 25);
        let meta = ParquetRecordBatchReaderBuilder::try_new(File::open(&out).unwrap())
            .unwrap()
            .metadata()
            .clone();
        assert_eq!(meta.num_row_groups(), 7, "groups of 4 rows");
        files.push(fs::read(&out).unwrap());
    }
    assert!(files.windows(2).all(|w| w[0] == w[1]));
    let back = read_parquet(&tmp.path().join("t3.parquet"));
    let rows: usize = back.iter().map(RecordBatch::num_rows).sum();
    assert_eq!(rows, 25);
}

#[test]
fn text_is_the_same_bytes_at_every_encoding_thread_count() {
    let tmp = tempfile::tempdir().unwrap();
    let batch = seed_games();
    for format in [OutFormat::Csv, OutFormat::Jsonl] {
        let mut files = Vec::new();
        for (threads, step) in [(0, 25), (1, 7), (3, 3), (2, 1)] {
            let out = tmp
                .path()
                .join(format!("t{threads}.{}", format.extension()));
            let opts = SinkOptions { threads, ..force() };
            let mut sink = create(&out, format, batch.schema(), &opts).unwrap();
            // batches of any size, more of them than threads and their queues hold
            let mut start = 0;
            while start < batch.num_rows() {
                let n = step.min(batch.num_rows() - start);
                sink.write(&batch.slice(start, n)).unwrap();
                start += n;
            }
            assert_eq!(sink.finish().unwrap().rows, 25);
            files.push(fs::read(&out).unwrap());
        }
        assert!(files.windows(2).all(|w| w[0] == w[1]), "{format:?}");
        let lines = files[0].iter().filter(|&&b| b == b'\n').count();
        let header = usize::from(format == OutFormat::Csv);
        assert!(lines >= 25 + header, "{format:?}: {lines} lines");
    }
}

/// A batch of many MiB is encoded in parts of a few MiB (one part a thread in flight): the
/// same bytes at every thread count, every row once, in order.
#[test]
fn a_large_text_batch_is_encoded_in_parts_as_the_same_bytes() {
    use std::sync::Arc;

    use arrow_array::{Int64Array, StringArray};
    use arrow_schema::{DataType, Field, Schema};

    let tmp = tempfile::tempdir().unwrap();
    let rows = 40_000_i64;
    let text: Vec<String> = (0..rows).map(|i| format!("{i:0>300}")).collect();
    let schema = Arc::new(Schema::new(vec![
        Field::new("n", DataType::Int64, false),
        Field::new("s", DataType::Utf8, false),
    ]));
    let batch = RecordBatch::try_new(
        schema.clone(),
        vec![
            Arc::new(Int64Array::from_iter_values(0..rows)),
            Arc::new(StringArray::from_iter_values(&text)),
        ],
    )
    .unwrap();
    for format in [OutFormat::Csv, OutFormat::Jsonl] {
        let mut files = Vec::new();
        for threads in [0, 1, 2] {
            let out = tmp
                .path()
                .join(format!("p{threads}.{}", format.extension()));
            let opts = SinkOptions { threads, ..force() };
            let mut sink = create(&out, format, schema.clone(), &opts).unwrap();
            sink.write(&batch).unwrap();
            assert_eq!(sink.finish().unwrap().rows, rows as u64);
            files.push(fs::read(&out).unwrap());
        }
        assert!(files.windows(2).all(|w| w[0] == w[1]), "{format:?}");
        let body = String::from_utf8(files[0].clone()).unwrap();
        let lines: Vec<&str> = body
            .lines()
            .skip(usize::from(format == OutFormat::Csv))
            .collect();
        assert_eq!(lines.len(), rows as usize, "{format:?}");
        for (i, line) in lines.iter().enumerate() {
            assert!(line.contains(&text[i]), "{format:?}: row {i} out of place");
        }
    }
}

#[test]
fn parquet_row_groups_end_at_their_arrow_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let batch = seed_games();
    let out = tmp.path().join("g.parquet");
    let opts = SinkOptions {
        threads: 2,
        row_group_bytes: 1,
        ..force()
    };
    let mut sink = create(&out, OutFormat::Parquet, batch.schema(), &opts).unwrap();
    sink.write(&batch.slice(0, 5)).unwrap();
    for k in 5..25 {
        sink.write(&batch.slice(k, 1)).unwrap();
    }
    sink.finish().unwrap();
    let meta = ParquetRecordBatchReaderBuilder::try_new(File::open(&out).unwrap())
        .unwrap()
        .metadata()
        .clone();
    assert_eq!(
        meta.num_row_groups(),
        25,
        "a group ends at the row that reaches the bound: the batch of 5 is cut by its mean row"
    );
    // a bound of about two rows: the batch of 5 makes groups of at most two rows, whatever
    // thread count encodes them
    let two = super_rows_bytes(&batch.slice(0, 5)) / 5 * 2;
    let groups = |threads: usize| {
        let out = tmp.path().join(format!("g{threads}.parquet"));
        let opts = SinkOptions {
            threads,
            row_group_bytes: two,
            ..force()
        };
        let mut sink = create(&out, OutFormat::Parquet, batch.schema(), &opts).unwrap();
        sink.write(&batch.slice(0, 5)).unwrap();
        sink.finish().unwrap();
        let file = File::open(&out).unwrap();
        let meta = ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .metadata()
            .clone();
        let rows: Vec<i64> = meta.row_groups().iter().map(|g| g.num_rows()).collect();
        (rows, fs::read(&out).unwrap())
    };
    let (rows, bytes) = groups(0);
    assert_eq!(rows, [2, 2, 1]);
    assert_eq!(groups(2).1, bytes);
}

/// The Arrow bytes of a batch's rows, as the sink counts them.
fn super_rows_bytes(batch: &arrow_array::RecordBatch) -> usize {
    batch
        .columns()
        .iter()
        .map(|c| c.to_data().get_slice_memory_size().unwrap())
        .sum()
}

#[test]
fn partitioned_datasets_are_hive_folders_replaced_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let batch = seed_games();
    let out = tmp.path().join("ds");
    let opts = SinkOptions {
        partition_by: vec!["year".into(), "Result".into()],
        max_rows_per_file: Some(10),
        ..SinkOptions::default()
    };
    let mut sink = create(&out, OutFormat::Parquet, batch.schema(), &opts).unwrap();
    sink.write(&batch).unwrap();
    let summary = sink.finish().unwrap();
    assert_eq!(summary.rows, 25);
    // the seed is one game of 2001, drawn: one partition (`/` escaped as Hive escapes it),
    // three files of at most 10 rows
    let folder = out.join("year=2001").join("Result=1%2F2-1%2F2");
    assert_eq!(
        names(&folder),
        [
            "part-00000.parquet",
            "part-00001.parquet",
            "part-00002.parquet"
        ]
    );
    assert!(out.join("_SUCCESS").exists());
    let rows: usize = names(&folder)
        .iter()
        .flat_map(|n| read_parquet(&folder.join(n)))
        .map(|b| b.num_rows())
        .sum();
    assert_eq!(rows, 25);
    // a partitioned dataset is ours: replaced whole with force, refused without
    assert!(matches!(
        create(&out, OutFormat::Parquet, batch.schema(), &opts),
        Err(Error::Exists(_))
    ));
    let forced = SinkOptions {
        force: true,
        ..opts.clone()
    };
    let mut sink = create(&out, OutFormat::Parquet, batch.schema(), &forced).unwrap();
    sink.write(&batch.slice(0, 3)).unwrap();
    assert_eq!(sink.finish().unwrap().rows, 3);
    assert_eq!(names(&folder), ["part-00000.parquet"]);
    // a folder holding a file kifu did not write is not replaced
    fs::write(folder.join("notes.txt"), "mine").unwrap();
    assert!(create(&out, OutFormat::Parquet, batch.schema(), &forced).is_err());
    // a partition the table cannot give
    let moves = SinkOptions {
        partition_by: vec!["nope".into()],
        ..force()
    };
    assert!(matches!(
        create(
            &tmp.path().join("x"),
            OutFormat::Csv,
            batch.schema(),
            &moves
        ),
        Err(Error::Partition(..))
    ));
}
