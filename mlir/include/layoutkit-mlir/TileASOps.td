//===- TileASOps.td - The tileas ops ------------------------*- tablegen -*-===//
//
// Part of LayoutKit.
//
//===----------------------------------------------------------------------===//
//
// Every op has a verifier (TileASOps.cpp); docs/mlir.md shows the syntax of
// each with an example that the lit suite runs.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUTKIT_MLIR_TILEAS_OPS_TD
#define LAYOUTKIT_MLIR_TILEAS_OPS_TD

include "layoutkit-mlir/TileASBase.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class TileAS_Op<string mnemonic, list<Trait> traits = []>
    : Op<TileAS_Dialect, mnemonic, traits> {
  let hasVerifier = 1;
}

defvar TileAS_Tile = AnyRankedTensor;

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

def TileAS_AllocTensorOp : TileAS_Op<"alloc_tensor"> {
  let summary = "allocates an SMEM or TMEM buffer";
  let results = (outs TileAS_Tile:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def TileAS_ViewOp : TileAS_Op<"view", [Pure]> {
  let summary = "a buffer at an element offset of another buffer";
  let description = [{
    The offset (in elements) is either the attribute `offset` or an `index`
    operand, so that a select of two offsets is expressible.
  }];
  let arguments = (ins TileAS_Tile:$source, Optional<Index>:$dynamicOffset,
                   OptionalAttr<I64Attr>:$offset);
  let results = (outs TileAS_Tile:$result);
  // A view of a view at constant offsets is one view at their sum (not
  // past 2^63-1); a view at offset 0 of its own type is its source.
  let hasFolder = 1;
  let assemblyFormat = [{
    $source (`[` $dynamicOffset^ `]`)? attr-dict `:` type($source) `->` type($result)
  }];
}

def TileAS_CopyOp : TileAS_Op<"copy"> {
  let summary = "copies a tile into a destination with a hardware copy atom";
  let arguments = (ins TileAS_Tile:$source, TileAS_Tile:$destination,
                   StrAttr:$atom);
  let results = (outs TileAS_Tile:$result);
  let assemblyFormat = [{
    $source `,` $destination attr-dict `:` type($source) `,` type($destination)
    `->` type($result)
  }];
}

def TileAS_InsertSliceOp : TileAS_Op<"insert_slice",
    [Pure, AllTypesMatch<["dest", "result"]>]> {
  let summary = "inserts a tile into a larger one at static offsets";
  let arguments = (ins TileAS_Tile:$source, TileAS_Tile:$dest,
                   DenseI64ArrayAttr:$offsets);
  let results = (outs TileAS_Tile:$result);
  let assemblyFormat = [{
    $source `into` $dest `` $offsets attr-dict `:` type($source) `into` type($dest)
  }];
}

//===----------------------------------------------------------------------===//
// Loads, stores and layout changes
//===----------------------------------------------------------------------===//

def TileAS_TiledLoadOp : TileAS_Op<"tiled_load"> {
  let summary = "loads a tile from a buffer";
  let arguments = (ins TileAS_Tile:$source, Variadic<Index>:$indices);
  let results = (outs TileAS_Tile:$result);
  let assemblyFormat = [{
    $source (`[` $indices^ `]`)? attr-dict `:` type($source) `->` type($result)
  }];
}

def TileAS_TiledStoreOp : TileAS_Op<"tiled_store"> {
  let summary = "stores a tile into a buffer";
  let arguments = (ins TileAS_Tile:$value, TileAS_Tile:$dest,
                   Variadic<Index>:$indices);
  let assemblyFormat = [{
    $value `,` $dest (`[` $indices^ `]`)? attr-dict `:` type($value) `->` type($dest)
  }];
}

def TileAS_ConvertLayoutOp : TileAS_Op<"convert_layout", [Pure]> {
  let summary = "the same tile with another encoding";
  // An identity conversion folds to its source; a conversion of a
  // conversion within one memory kind converts the first one's source.
  let hasFolder = 1;
  let arguments = (ins TileAS_Tile:$source);
  let results = (outs TileAS_Tile:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
}

def TileAS_TiledAtomicOp : TileAS_Op<"tiled_atomic"> {
  let summary = "combines a tile into a buffer element by element";
  let arguments = (ins StrAttr:$kind, TileAS_Tile:$value, TileAS_Tile:$dest,
                   Variadic<Index>:$indices);
  let assemblyFormat = [{
    $kind $value `,` $dest (`[` $indices^ `]`)? attr-dict `:` type($value)
    `->` type($dest)
  }];
}

def TileAS_SelectOp : TileAS_Op<"select",
    [Pure, AllTypesMatch<["trueValue", "falseValue", "result"]>]> {
  let summary = "one of two tiles, chosen by an i1 condition";
  // Verified by its constraints: an i1 condition, arms of the result type.
  let hasVerifier = 0;
  let arguments = (ins I1:$condition, TileAS_Tile:$trueValue,
                   TileAS_Tile:$falseValue);
  let results = (outs TileAS_Tile:$result);
  let assemblyFormat = [{
    $condition `,` $trueValue `,` $falseValue attr-dict `:` type($result)
  }];
}

def TileAS_GatherOp : TileAS_Op<"gather", [Pure]> {
  let summary = "result[i] = source[i with axis replaced by indices[i]]";
  let arguments = (ins TileAS_Tile:$source, TileAS_Tile:$indices,
                   I64Attr:$axis);
  let results = (outs TileAS_Tile:$result);
  let assemblyFormat = [{
    $source `[` $indices `]` attr-dict `:` type($source) `,` type($indices)
    `->` type($result)
  }];
}

def TileAS_ScatterOp : TileAS_Op<"scatter", [Pure]> {
  let summary = "dest[i with axis replaced by indices[i]] = values[i]";
  let arguments = (ins TileAS_Tile:$values, TileAS_Tile:$dest,
                   TileAS_Tile:$indices, I64Attr:$axis);
  let results = (outs TileAS_Tile:$result);
  let assemblyFormat = [{
    $values `into` $dest `[` $indices `]` attr-dict `:` type($values) `,`
    type($indices) `->` type($dest) `,` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// Tensor cores
//===----------------------------------------------------------------------===//

def TileAS_WgmmaOp : TileAS_Op<"wgmma", [Pure]> {
  let summary = "Hopper warpgroup MMA: result = a * b + acc";
  let arguments = (ins TileAS_Tile:$a, TileAS_Tile:$b, TileAS_Tile:$acc);
  let results = (outs TileAS_Tile:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc attr-dict `:` type($a) `,` type($b) `,` type($acc)
    `->` type($result)
  }];
}

def TileAS_Tcgen05MmaOp : TileAS_Op<"tcgen05_mma"> {
  let summary = "Blackwell tensor-core MMA with a TMEM accumulator";
  let arguments = (ins TileAS_Tile:$a, TileAS_Tile:$b, TileAS_Tile:$acc);
  let results = (outs TileAS_Tile:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc attr-dict `:` type($a) `,` type($b) `,` type($acc)
    `->` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// Synchronisation and pipelines
//===----------------------------------------------------------------------===//

def TileAS_FenceOp : TileAS_Op<"fence"> {
  let summary = "orders memory accesses of a scope";
  let arguments = (ins StrAttr:$scope);
  let assemblyFormat = "$scope attr-dict";
}

def TileAS_AsyncWaitOp : TileAS_Op<"async_wait"> {
  let summary = "waits until at most `pending` async copies are in flight";
  let arguments = (ins I64Attr:$pending);
  let assemblyFormat = "attr-dict";
}

def TileAS_ProduceOneOp : TileAS_Op<"produce_one"> {
  let summary = "puts one tile into a pipeline slot (a buffer)";
  let arguments = (ins TileAS_Tile:$value, I64Attr:$depth);
  let results = (outs TileAS_Tile:$slot);
  let assemblyFormat = "$value attr-dict `:` type($value) `->` type($slot)";
}

def TileAS_ConsumeOneOp : TileAS_Op<"consume_one"> {
  let summary = "takes one tile out of a pipeline slot";
  let arguments = (ins TileAS_Tile:$slot);
  let results = (outs TileAS_Tile:$result);
  let assemblyFormat = "$slot attr-dict `:` type($slot) `->` type($result)";
}

def TileAS_PipelineExecuteOp : TileAS_Op<"async.pipeline.execute", [
    DeclareOpInterfaceMethods<RegionBranchOpInterface,
                              ["getEntrySuccessorOperands"]>,
    SingleBlockImplicitTerminator<"PipelineYieldOp">, RecursiveMemoryEffects]> {
  let summary = "a pipelined region: runs its body once";
  let description = [{
    The operands initialise the block arguments; the values yielded by the
    body are the results.
  }];
  let arguments = (ins Variadic<AnyType>:$inits);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`(` $inits^ `:` type($inits) `)`)? (`->` type($results)^)?
    attr-dict-with-keyword $body
  }];
}

def TileAS_AgentSwitchOp : TileAS_Op<"async.pipeline.agent_switch", [
    DeclareOpInterfaceMethods<RegionBranchOpInterface>,
    SingleBlockImplicitTerminator<"PipelineYieldOp">, RecursiveMemoryEffects]> {
  let summary = "one region per agent (warp group); the agents run concurrently";
  let regions = (region VariadicRegion<SizedRegion<1>>:$agents);
  let assemblyFormat = "attr-dict-with-keyword $agents";
}

def TileAS_PipelineYieldOp : TileAS_Op<"async.pipeline.yield", [
    Pure, ReturnLike, Terminator,
    ParentOneOf<["PipelineExecuteOp", "AgentSwitchOp"]>]> {
  let summary = "ends a pipeline region";
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

def TileAS_PragmaBeginOp : TileAS_Op<"pragma_begin"> {
  let summary = "opens a named pragma range, closed by pragma_end";
  let arguments = (ins StrAttr:$kind);
  let assemblyFormat = "$kind attr-dict";
}

def TileAS_PragmaEndOp : TileAS_Op<"pragma_end"> {
  let summary = "closes the innermost open pragma range of the same name";
  let arguments = (ins StrAttr:$kind);
  let assemblyFormat = "$kind attr-dict";
}

#endif // LAYOUTKIT_MLIR_TILEAS_OPS_TD
