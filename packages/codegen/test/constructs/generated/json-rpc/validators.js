
export const Tick = fastFirst(fast0, validate20);
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://agentproto.dev/schemas/json-rpc/1/Tick.schema.json","type":"object","required":["seq"],"properties":{"seq":{"type":"integer","minimum":0},"note":{}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="https://agentproto.dev/schemas/json-rpc/1/Tick.schema.json" */;
let vErrors = null;
let errors = 0;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.seq === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "seq"},message:"must have required property '"+"seq"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.seq !== undefined){
let data0 = data.seq;
if(!(((typeof data0 == "number") && (!(data0 % 1) && !isNaN(data0))) && (isFinite(data0)))){
const err1 = {instancePath:instancePath+"/seq",schemaPath:"#/properties/seq/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if((typeof data0 == "number") && (isFinite(data0))){
if(data0 < 0 || isNaN(data0)){
const err2 = {instancePath:instancePath+"/seq",schemaPath:"#/properties/seq/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
}
}
else {
const err3 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}

export const rpc_add_params = fastFirst(fast3, validate21);
const schema32 = {"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number","default":0}},"required":["a"],"$id":"https://agentproto.dev/schemas/json-rpc/1/inline/rpc_add_params.json"};

function validate21(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="https://agentproto.dev/schemas/json-rpc/1/inline/rpc_add_params.json" */;
let vErrors = null;
let errors = 0;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.a === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "a"},message:"must have required property '"+"a"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.a !== undefined){
let data0 = data.a;
if(!((typeof data0 == "number") && (isFinite(data0)))){
const err1 = {instancePath:instancePath+"/a",schemaPath:"#/properties/a/type",keyword:"type",params:{type: "number"},message:"must be number"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.b !== undefined){
let data1 = data.b;
if(!((typeof data1 == "number") && (isFinite(data1)))){
const err2 = {instancePath:instancePath+"/b",schemaPath:"#/properties/b/type",keyword:"type",params:{type: "number"},message:"must be number"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
}
else {
const err3 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
validate21.errors = vErrors;
return errors === 0;
}

export const rpc_add_result = fastFirst(fast6, validate22);
const schema33 = {"type":"number","$id":"https://agentproto.dev/schemas/json-rpc/1/inline/rpc_add_result.json"};

function validate22(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="https://agentproto.dev/schemas/json-rpc/1/inline/rpc_add_result.json" */;
let vErrors = null;
let errors = 0;
if(!((typeof data == "number") && (isFinite(data)))){
const err0 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "number"},message:"must be number"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
validate22.errors = vErrors;
return errors === 0;
}

export const rpc_notify_ping_params = fastFirst(fast7, validate23);
const schema34 = {"type":"object","properties":{},"$id":"https://agentproto.dev/schemas/json-rpc/1/inline/rpc_notify_ping_params.json"};

function validate23(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="https://agentproto.dev/schemas/json-rpc/1/inline/rpc_notify_ping_params.json" */;
let vErrors = null;
let errors = 0;
if(!(data && typeof data == "object" && !Array.isArray(data))){
const err0 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
validate23.errors = vErrors;
return errors === 0;
}

export const rpc_notify_ping_result = fastFirst(fast8, validate24);
const schema35 = {"const":"pong","$id":"https://agentproto.dev/schemas/json-rpc/1/inline/rpc_notify_ping_result.json"};

function validate24(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="https://agentproto.dev/schemas/json-rpc/1/inline/rpc_notify_ping_result.json" */;
let vErrors = null;
let errors = 0;
if("pong" !== data){
const err0 = {instancePath,schemaPath:"#/const",keyword:"const",params:{allowedValue: "pong"},message:"must be equal to constant"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
validate24.errors = vErrors;
return errors === 0;
}

export const rpc_watch_params = fastFirst(fast9, validate25);
const schema36 = {"type":"object","properties":{"from":{"type":"integer","minimum":0}},"$id":"https://agentproto.dev/schemas/json-rpc/1/inline/rpc_watch_params.json"};

function validate25(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="https://agentproto.dev/schemas/json-rpc/1/inline/rpc_watch_params.json" */;
let vErrors = null;
let errors = 0;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.from !== undefined){
let data0 = data.from;
if(!(((typeof data0 == "number") && (!(data0 % 1) && !isNaN(data0))) && (isFinite(data0)))){
const err0 = {instancePath:instancePath+"/from",schemaPath:"#/properties/from/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if((typeof data0 == "number") && (isFinite(data0))){
if(data0 < 0 || isNaN(data0)){
const err1 = {instancePath:instancePath+"/from",schemaPath:"#/properties/from/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
}
}
else {
const err2 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
validate25.errors = vErrors;
return errors === 0;
}


function fastFirst(fast, full){
const validate = function(data, context){
if(fast(data)){
validate.errors = null;
return true;
}
const valid = full(data, context);
validate.errors = full.errors;
return valid;
};
validate.fast = fast;
validate.full = full;
return validate;
}
function fast0(data){
if(!((data && typeof data == "object" && !Array.isArray(data)))) return false;
{const v1 = data["seq"];
if(v1 === undefined) return false;
if(!(Number.isInteger(v1))) return false;
if((!(v1 >= 0))) return false;
}
return true;
}
function fast3(data){
if(!((data && typeof data == "object" && !Array.isArray(data)))) return false;
{const v4 = data["a"];
if(v4 === undefined) return false;
if(!(Number.isFinite(v4))) return false;
}
{const v5 = data["b"];
if(v5 !== undefined){
if(!(Number.isFinite(v5))) return false;
}}
return true;
}
function fast6(data){
if(!(Number.isFinite(data))) return false;
return true;
}
function fast7(data){
if(!((data && typeof data == "object" && !Array.isArray(data)))) return false;
return true;
}
function fast8(data){
if(!(data === "pong")) return false;
return true;
}
function fast9(data){
if(!((data && typeof data == "object" && !Array.isArray(data)))) return false;
{const v10 = data["from"];
if(v10 !== undefined){
if(!(Number.isInteger(v10))) return false;
if((!(v10 >= 0))) return false;
}}
return true;
}
